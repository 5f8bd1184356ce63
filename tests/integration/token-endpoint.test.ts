import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { revokeCredential, rotateSecret } from "../../lib/credentials/credentials";
import { startServer, type TestServer } from "../support/server";
import { accessToken, basic, decodeJwtPart, eventually, newCredential, openDb, SERVER_AUTH_SECRET, tokenRequest } from "./gateway-support";

let server: TestServer;
let db: Db;
let client: Awaited<ReturnType<typeof newCredential>>;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  client = await newCredential(db, "sso-qa");
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const GRANT = "grant_type=client_credentials";

async function expectOAuthError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = await response.json();
  expect(body).toEqual({ error, error_description: expect.any(String) });
  return body as { error: string; error_description: string };
}

describe("POST /gw/{env}/oauth2/token", () => {
  it("issues an RFC 9068 access token to client_secret_basic", async () => {
    const response = await tokenRequest(server, "sso-qa", { headers: { authorization: basic(client.clientId, client.clientSecret) }, body: GRANT });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const body = await response.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: "Bearer", expires_in: 3600, scope: "notifications:read notifications:write" });
    const header = decodeJwtPart(body.access_token, 0);
    expect(header).toEqual({ alg: "RS256", typ: "at+jwt", kid: expect.stringMatching(/^key_/) });
    const claims = decodeJwtPart(body.access_token, 1);
    expect(claims).toEqual({
      iss: `${server.url}/gw/sso-qa`,
      aud: `${server.url}/gw/sso-qa/`,
      sub: client.clientId,
      client_id: client.clientId,
      scope: "notifications:read notifications:write",
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: expect.any(Number),
      env: "sso-qa",
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
  });

  it("accepts client_secret_post in a form body and in a JSON body, and narrows the scope", async () => {
    const form = await tokenRequest(server, "sso-qa", {
      body: `${GRANT}&scope=notifications%3Aread&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
    });
    expect(form.status).toBe(200);
    expect((await form.json()).scope).toBe("notifications:read");
    const json = await tokenRequest(server, "sso-qa", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_id: client.clientId, client_secret: client.clientSecret, scope: "notifications:write" }),
    });
    expect(json.status).toBe(200);
    const token = (await json.json()).access_token;
    expect(decodeJwtPart(token, 1).scope).toBe("notifications:write");
  });

  it("answers invalid_scope for a scope the client is not granted", async () => {
    const reader = await newCredential(db, "sso-qa", { scopes: ["notifications:read"] });
    const response = await tokenRequest(server, "sso-qa", {
      headers: { authorization: basic(reader.clientId, reader.clientSecret) },
      body: `${GRANT}&scope=notifications:write`,
    });
    const body = await expectOAuthError(response, 400, "invalid_scope");
    expect(body.error_description).toContain("notifications:write");
  });

  it.each([
    [
      "both authentication methods",
      (c: typeof client) => ({
        headers: { authorization: basic(c.clientId, c.clientSecret) },
        body: `${GRANT}&client_id=${c.clientId}&client_secret=${c.clientSecret}`,
      }),
    ],
    ["no client authentication", () => ({ body: GRANT })],
    ["a missing grant_type", (c: typeof client) => ({ headers: { authorization: basic(c.clientId, c.clientSecret) }, body: "scope=notifications:read" })],
    ["a repeated parameter", (c: typeof client) => ({ headers: { authorization: basic(c.clientId, c.clientSecret) }, body: `${GRANT}&${GRANT}` })],
    ["client_id without client_secret", (c: typeof client) => ({ body: `${GRANT}&client_id=${c.clientId}` })],
    [
      "a body that is not a form",
      (c: typeof client) => ({ headers: { authorization: basic(c.clientId, c.clientSecret), "content-type": "text/plain" }, body: GRANT }),
    ],
    ["broken JSON", (c: typeof client) => ({ headers: { authorization: basic(c.clientId, c.clientSecret), "content-type": "application/json" }, body: "{" })],
    ["a JSON array", (c: typeof client) => ({ headers: { authorization: basic(c.clientId, c.clientSecret), "content-type": "application/json" }, body: "[]" })],
    ["a malformed Basic header", () => ({ headers: { authorization: "Basic !!!" }, body: GRANT })],
    [
      "a scope with forbidden characters",
      (c: typeof client) => ({ headers: { authorization: basic(c.clientId, c.clientSecret) }, body: `${GRANT}&scope=%22bad%22` }),
    ],
  ])("answers invalid_request for %s", async (_name, build) => {
    await expectOAuthError(await tokenRequest(server, "sso-qa", build(client)), 400, "invalid_request");
  });

  it("form-decodes HTTP Basic credentials (RFC 6749 §2.3.1) and refuses a broken escape", async () => {
    const everyCharEscaped = (value: string) => [...Buffer.from(value)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
    const encoded = `Basic ${Buffer.from(`${everyCharEscaped(client.clientId)}:${everyCharEscaped(client.clientSecret)}`).toString("base64")}`;
    expect((await tokenRequest(server, "sso-qa", { headers: { authorization: encoded }, body: GRANT })).status).toBe(200);
    const broken = `Basic ${Buffer.from(`${client.clientId}:%zz${client.clientSecret}`).toString("base64")}`;
    const body = await expectOAuthError(await tokenRequest(server, "sso-qa", { headers: { authorization: broken }, body: GRANT }), 400, "invalid_request");
    expect(body.error_description).toMatch(/form-urlencoded/);
  });

  it("refuses client credentials in the URL", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa/oauth2/token?client_secret=${client.clientSecret}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client.clientId, client.clientSecret) },
      body: GRANT,
    });
    const body = await expectOAuthError(response, 400, "invalid_request");
    expect(JSON.stringify(body)).not.toContain(client.clientSecret);
  });

  it("answers unsupported_grant_type for another grant", async () => {
    const response = await tokenRequest(server, "sso-qa", {
      headers: { authorization: basic(client.clientId, client.clientSecret) },
      body: "grant_type=password",
    });
    await expectOAuthError(response, 400, "unsupported_grant_type");
  });

  it("answers the same invalid_client for a wrong secret, an unknown id and another environment's credential", async () => {
    const other = await newCredential(db, "platform-dev");
    const attempts = [
      basic(client.clientId, `${client.clientSecret.slice(0, -2)}xx`),
      basic("gci_000000000000000000000000", client.clientSecret),
      basic(other.clientId, other.clientSecret),
    ];
    const bodies = [];
    for (const authorization of attempts) {
      const response = await tokenRequest(server, "sso-qa", { headers: { authorization }, body: GRANT });
      expect(response.headers.get("www-authenticate")).toBe('Basic realm="sso-qa"');
      bodies.push(await expectOAuthError(response, 401, "invalid_client"));
    }
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(JSON.stringify(bodies)).not.toContain(client.clientSecret.slice(4, 20));
  });

  it("stops issuing tokens to a revoked credential within 5 seconds", async () => {
    const doomed = await newCredential(db, "sso-qa");
    await accessToken(server, "sso-qa", doomed);
    await revokeCredential({ db, actor: CLI_ACTOR, clientId: doomed.clientId });
    const refused = await eventually(async () => {
      const response = await tokenRequest(server, "sso-qa", { headers: { authorization: basic(doomed.clientId, doomed.clientSecret) }, body: GRANT });
      return response.status === 401 && (await response.json()).error === "invalid_client";
    });
    expect(refused).toBe(true);
  });

  it("accepts both secrets during a rotation's grace period", async () => {
    const rotating = await newCredential(db, "sso-qa");
    const next = await rotateSecret({ db, actor: CLI_ACTOR, clientId: rotating.clientId, graceSeconds: 600, authSecret: SERVER_AUTH_SECRET });
    expect(await accessToken(server, "sso-qa", rotating)).toBeTruthy();
    expect(await accessToken(server, "sso-qa", { clientId: rotating.clientId, clientSecret: next.clientSecret })).toBeTruthy();
  });

  it("accepts a secret rotated in right after a token request, without waiting for the kept credential state", async () => {
    const rotating = await newCredential(db, "sso-qa");
    expect(await accessToken(server, "sso-qa", rotating)).toBeTruthy();
    const next = await rotateSecret({ db, actor: CLI_ACTOR, clientId: rotating.clientId, graceSeconds: 600, authSecret: SERVER_AUTH_SECRET });
    expect(await accessToken(server, "sso-qa", { clientId: rotating.clientId, clientSecret: next.clientSecret })).toBeTruthy();
  });

  it("refuses an expired secret with invalid_client", async () => {
    const expiring = await newCredential(db, "sso-qa");
    await db.credentialSecret.updateMany({ where: { credentialId: expiring.credentialId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const response = await tokenRequest(server, "sso-qa", { headers: { authorization: basic(expiring.clientId, expiring.clientSecret) }, body: GRANT });
    await expectOAuthError(response, 401, "invalid_client");
  });

  it("answers 405 with Allow for other methods", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa/oauth2/token`);
    expect(response.headers.get("allow")).toBe("POST");
    await expectOAuthError(response, 405, "invalid_request");
  });

  it("answers 413 for a body over 16 KiB, declared or streamed", async () => {
    const big = `${GRANT}&scope=${"a".repeat(17 * 1024)}`;
    await expectOAuthError(
      await tokenRequest(server, "sso-qa", { headers: { authorization: basic(client.clientId, client.clientSecret) }, body: big }),
      413,
      "invalid_request",
    );
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await fetch(`${server.url}/gw/sso-qa/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client.clientId, client.clientSecret) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectOAuthError(response, 413, "invalid_request");
  });

  it("throttles repeated failures of a client id from one address, with Retry-After", async () => {
    const victim = await newCredential(db, "sso-qa");
    const wrong = { headers: { authorization: basic(victim.clientId, `${victim.clientSecret.slice(0, -1)}_`) }, body: GRANT };
    for (let attempt = 0; attempt < 10; attempt++) await expectOAuthError(await tokenRequest(server, "sso-qa", wrong), 401, "invalid_client");
    const throttled = await tokenRequest(server, "sso-qa", { headers: { authorization: basic(victim.clientId, victim.clientSecret) }, body: GRANT });
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectOAuthError(throttled, 429, "temporarily_unavailable");
  });

  it("never writes a secret to the log, even one sent in place of the client id", async () => {
    const swapped = await tokenRequest(server, "sso-qa", { headers: { authorization: basic(client.clientSecret, client.clientId) }, body: GRANT });
    await expectOAuthError(swapped, 401, "invalid_client");
    expect(await server.settledOutput()).not.toContain(client.clientSecret);
  });
});
