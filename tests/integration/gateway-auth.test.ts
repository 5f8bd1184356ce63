import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { revokeCredential } from "../../lib/credentials/credentials";
import { startServer, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb, signWithRealKey as signWithRealKeyOf } from "./gateway-support";

let server: TestServer;
let db: Db;
let client: Awaited<ReturnType<typeof newCredential>>;
let token: string;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  client = await newCredential(db, "sso-qa");
  token = await accessToken(server, "sso-qa", client);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const LIST = "/gw/sso-qa/notifications/v1/notifications";

function call(authorization: string | undefined, path = LIST, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { ...(authorization === undefined ? {} : { authorization }), ...(init.headers as Record<string, string>) },
  });
}

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("x-request-id")).toBeTruthy();
  const body = await response.json();
  expect(body).toMatchObject({
    type: `${server.url}/problems/${code}`,
    status,
    title: expect.any(String),
    detail: expect.any(String),
    instance: expect.any(String),
    requestId: response.headers.get("x-request-id"),
  });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  return body;
}

function signWithRealKey(envSlug: string, claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  return signWithRealKeyOf(server, db, { envSlug, clientId: client.clientId, claims, header });
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

describe("authentication failures (docs/DESIGN.md §6)", () => {
  it("401 token-missing with a bare Bearer challenge when there is no Authorization header", async () => {
    const response = await call(undefined);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sso-qa"');
    await expectProblem(response, 401, "token-missing");
  });

  it.each(["Basic abc", "Bearer", "Bearer a b", "bearer  ", "Token abc.def.ghi", "Bearer ä"])("400 token-malformed for %j", async (header) => {
    const response = await call(header);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sso-qa", error="invalid_request"');
    const body = await expectProblem(response, 400, "token-malformed");
    expect(body.errors).toEqual([{ in: "header", field: "authorization", message: expect.any(String) }]);
  });

  it("accepts a valid token", async () => {
    const response = await call(`Bearer ${token}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  const forgeries: [string, () => Promise<string>][] = [
    ["alg none", async () => `${b64({ alg: "none", typ: "at+jwt" })}.${token.split(".")[1]}.`],
    [
      "HS256 signed with the public key",
      async () => {
        const { keys } = await (await fetch(`${server.url}/gw/sso-qa/.well-known/jwks.json`)).json();
        const secret = new TextEncoder().encode(JSON.stringify(keys[0]));
        const header = { alg: "HS256", typ: "at+jwt", kid: keys[0].kid };
        return new SignJWT(JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString())).setProtectedHeader(header).sign(secret);
      },
    ],
    [
      "a foreign key with a real kid",
      async () => {
        const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
        const kid = JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()).kid;
        const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
        return new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid }).sign(privateKey);
      },
    ],
    [
      "a tampered payload",
      async () => {
        const [header, payload, signature] = token.split(".");
        const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
        return `${header}.${b64({ ...claims, scope: "admin" })}.${signature}`;
      },
    ],
    ["a stripped signature", async () => `${token.split(".").slice(0, 2).join(".")}.`],
    ["an unknown kid", async () => signWithRealKey("sso-qa", {}, { kid: "key_does_not_exist" })],
    ["a wrong typ", async () => signWithRealKey("sso-qa", {}, { typ: "JWT" })],
    ["not yet valid (nbf in 2 minutes)", async () => signWithRealKey("sso-qa", { nbf: Math.floor(Date.now() / 1000) + 120 })],
    ["a wrong issuer", async () => signWithRealKey("sso-qa", { iss: "https://evil.example/gw/sso-qa" })],
    ["a wrong audience", async () => signWithRealKey("sso-qa", { aud: "https://evil.example/" })],
    ["not a JWT at all", async () => "abc"],
  ];

  it.each(forgeries)("401 token-invalid for %s", async (_name, forge) => {
    const response = await call(`Bearer ${await forge()}`);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="sso-qa", error="invalid_token", error_description="[^"]+"$/);
    await expectProblem(response, 401, "token-invalid");
  });

  it("401 token-invalid for a token that ends as a kept one does, with other claims", async () => {
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const widened = `${header}.${b64({ ...claims, scope: `${claims.scope} admin` })}.${signature}`;
    expect(widened.slice(-43)).toBe(token.slice(-43));
    await expectProblem(await call(`Bearer ${widened}`), 401, "token-invalid");
  });

  it("401 token-expired for a token past exp plus 30 s leeway", async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await signWithRealKey("sso-qa", { iat: past, exp: past + 60 });
    const response = await call(`Bearer ${expired}`);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    await expectProblem(response, 401, "token-expired");
    const now = Math.floor(Date.now() / 1000);
    const withinLeeway = await signWithRealKey("sso-qa", { iat: now - 600, exp: now - 20 });
    expect((await call(`Bearer ${withinLeeway}`)).status).toBe(200);
    const pastLeeway = await signWithRealKey("sso-qa", { iat: now - 600, exp: now - 40 });
    await expectProblem(await call(`Bearer ${pastLeeway}`), 401, "token-expired");
  });

  it("401 token-wrong-environment naming both environments, also once the token was used in its own", async () => {
    const other = await newCredential(db, "platform-dev");
    const foreign = await accessToken(server, "platform-dev", other);
    // Verified and kept for platform-dev first: what is kept there must not admit it to sso-qa.
    expect((await call(`Bearer ${foreign}`, LIST.replace("sso-qa", "platform-dev"))).status).toBe(200);
    const response = await call(`Bearer ${foreign}`);
    const body = await expectProblem(response, 401, "token-wrong-environment");
    expect(body).toMatchObject({ tokenEnvironment: "platform-dev", calledEnvironment: "sso-qa" });
    expect(body.detail).toContain("platform-dev");
    expect(body.detail).toContain("sso-qa");
  });

  it("401 token-revoked once the credential is revoked (within 5 s)", async () => {
    const doomed = await newCredential(db, "sso-qa");
    const doomedToken = await accessToken(server, "sso-qa", doomed);
    expect((await call(`Bearer ${doomedToken}`)).status).toBe(200);
    await revokeCredential({ db, actor: CLI_ACTOR, clientId: doomed.clientId });
    expect(await eventually(async () => (await call(`Bearer ${doomedToken}`)).status === 401)).toBe(true);
    await expectProblem(await call(`Bearer ${doomedToken}`), 401, "token-revoked");
  });

  it("never puts the token in the log", async () => {
    expect(await server.settledOutput()).not.toContain(token.split(".")[2]);
  });
});

describe("authorization failures", () => {
  it("403 api-not-granted when the credential has no grant for the API", async () => {
    const ungranted = await newCredential(db, "sso-qa");
    await db.grant.deleteMany({ where: { credentialId: ungranted.credentialId } });
    const ungrantedToken = await accessToken(server, "sso-qa", ungranted);
    const response = await call(`Bearer ${ungrantedToken}`);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sso-qa", error="insufficient_scope", scope="notifications:read notifications:write"');
    const body = await expectProblem(response, 403, "api-not-granted");
    expect(body.api).toBe("notifications");
  });

  it("403 scope-missing naming the scope the operation needs", async () => {
    const readOnly = await accessToken(server, "sso-qa", client, "notifications:read");
    const response = await call(`Bearer ${readOnly}`, `${LIST}/ntf_anything`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: '{"status":"read"}',
    });
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sso-qa", error="insufficient_scope", scope="notifications:write"');
    const body = await expectProblem(response, 403, "scope-missing");
    expect(body.requiredScope).toBe("notifications:write");
    expect(body.detail).toContain("notifications:write");
  });
});

describe("routing", () => {
  it("404 for an unknown operation and 405 with Allow for a known path with another method", async () => {
    await expectProblem(await call(`Bearer ${token}`, "/gw/sso-qa/notifications/v2/things"), 404, "not-found");
    const response = await call(`Bearer ${token}`, LIST, { method: "DELETE" });
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    await expectProblem(response, 405, "method-not-allowed");
  });

  it("404 for a token API path that is not the token endpoint", async () => {
    await expectProblem(await call(undefined, "/gw/sso-qa/global-sso-token/anything"), 404, "not-found");
  });

  it("sends rate-limit headers on success", async () => {
    const response = await call(`Bearer ${token}`);
    expect(response.headers.get("ratelimit-policy")).toBe('"client";q=100;w=2');
    expect(response.headers.get("ratelimit")).toMatch(/^"client";r=\d+;t=\d+$/);
  });

  it("marks the credential as used by gateway calls, not only by token requests", async () => {
    const user = await newCredential(db, "sso-qa");
    const userToken = await accessToken(server, "sso-qa", user);
    const lastUsed = async () => (await db.credential.findUniqueOrThrow({ where: { id: user.credentialId } })).lastUsedAt;
    expect(await eventually(async () => (await lastUsed()) !== null)).toBe(true);
    await db.credential.update({ where: { id: user.credentialId }, data: { lastUsedAt: null } });
    expect((await call(`Bearer ${userToken}`)).status).toBe(200);
    expect(await eventually(async () => (await lastUsed()) !== null)).toBe(true);
  }, 20_000);

  it("records each request with its route template, off the hot path", async () => {
    const requestId = `log-${createHash("sha256").update(randomUUID()).digest("hex").slice(0, 12)}`;
    const sentAt = Date.now();
    await call(`Bearer ${token}`, `${LIST}/ntf_unknown`, { headers: { "x-request-id": requestId } });
    const answeredAt = Date.now();
    expect(await eventually(async () => (await db.requestLog.count({ where: { requestId } })) === 1)).toBe(true);
    const row = await db.requestLog.findFirstOrThrow({ where: { requestId } });
    expect(row).toMatchObject({
      environment: "sso-qa",
      api: "notifications",
      clientId: client.clientId,
      method: "GET",
      route: "/v1/notifications/{id}",
      status: 404,
    });
    expect(row.latencyMs).toBeGreaterThan(0);
    // The time reads back as the moment it was served, and sorts and filters as Prisma's own rows do.
    expect(row.at.getTime()).toBeGreaterThanOrEqual(sentAt);
    expect(row.at.getTime()).toBeLessThanOrEqual(answeredAt);
    expect(await db.requestLog.count({ where: { requestId, at: { gte: new Date(sentAt), lte: new Date(answeredAt) } } })).toBe(1);
  });
});
