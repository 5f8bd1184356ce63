// private_key_jwt (RFC 7523) at the token endpoint, with openid-client as an independent client.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { exportJWK, exportPKCS8, generateKeyPair, type JWK, SignJWT } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { issueSecret, rotateSecret } from "../../lib/credentials/credentials";
import type { Db } from "../../lib/db";
import { CLIENT_ASSERTION_TYPE } from "../../lib/oauth/assertion-rules";
import { runAdmin } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { basic, decodeJwtPart, newCredential, newKeyCredential, openDb, SERVER_AUTH_SECRET, tokenRequest } from "./gateway-support";

let server: TestServer;
let db: Db;
let keyServer: Server;
let keyServerUrl: string;
let pair: Awaited<ReturnType<typeof generateKeyPair>>;
let publicJwk: JWK;
let inline: Awaited<ReturnType<typeof newKeyCredential>>;
let byUri: Awaited<ReturnType<typeof newKeyCredential>>;

beforeAll(async () => {
  pair = await generateKeyPair("ES256", { extractable: true });
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "ci-key-1", alg: "ES256", use: "sig" };
  keyServer = createServer((_request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
  keyServerUrl = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}/jwks.json`;
  // Through OUTBOUND_ALLOW_PRIVATE, the jwks_uri on this machine's loopback is allowed.
  server = await startServer({ env: { OUTBOUND_ALLOW_PRIVATE: "1" } });
  db = openDb(server);
  inline = await newKeyCredential(db, "sso-qa", { jwks: { keys: [publicJwk] } });
  byUri = await newKeyCredential(db, "sso-qa", { jwksUri: keyServerUrl });
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await new Promise<void>((resolve) => (keyServer ? keyServer.close(() => resolve()) : resolve()));
});

const issuer = () => `${server.url}/gw/sso-qa`;
const tokenEndpoint = () => `${issuer()}/oauth2/token`;

/** An assertion as RFC 7523 describes it, signed with the client's key; each claim and header can be changed. */
async function assertion(
  clientId: string,
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
  key: CryptoKey | Uint8Array = pair.privateKey,
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: clientId, sub: clientId, aud: tokenEndpoint(), jti: randomUUID(), iat: now, exp: now + 60, ...claims })
    .setProtectedHeader({ alg: "ES256", kid: "ci-key-1", ...header })
    .sign(key);
}

/** A credential with the same key as `inline`, for refusals: each client id takes only 10 failures a minute from one address. */
const sameKeys = () => newKeyCredential(db, "sso-qa", { jwks: { keys: [publicJwk] } });

function assertionRequest(signed: string, fields: Record<string, string> = {}) {
  return tokenRequest(server, "sso-qa", {
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: signed,
      ...fields,
    }).toString(),
  });
}

async function expectInvalidClient(response: Response) {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: "invalid_client", error_description: "Client authentication failed." });
}

describe("private_key_jwt", () => {
  it("is listed in the metadata, with the algorithms allowed", async () => {
    const metadata = await (await fetch(`${server.url}/.well-known/oauth-authorization-server/gw/sso-qa`)).json();
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]);
    expect(metadata.token_endpoint_auth_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256", "EdDSA"]);
  });

  it("issues a token to openid-client authenticating with the inline key, and stores no secret", async () => {
    const configuration = await client.discovery(
      new URL(issuer()),
      inline.clientId,
      undefined,
      client.PrivateKeyJwt({ key: pair.privateKey, kid: "ci-key-1" }),
      {
        algorithm: "oauth2",
        execute: [client.allowInsecureRequests],
      },
    );
    const tokens = await client.clientCredentialsGrant(configuration, { scope: "notifications:read" });
    expect(tokens.token_type).toBe("bearer");
    expect(decodeJwtPart(tokens.access_token, 1)).toMatchObject({ client_id: inline.clientId, sub: inline.clientId, scope: "notifications:read" });
    const calls = await fetch(`${issuer()}/notifications/v1/notifications`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(calls.status).toBe(200);
    expect(inline.secret).toBeNull();
    expect(await db.credentialSecret.count({ where: { credential: { clientId: inline.clientId } } })).toBe(0);
    expect(inline.credential.authentication).toEqual({ method: "private_key_jwt", jwksUri: null, keyIds: ["ci-key-1"] });
  });

  it("fetches the keys at the credential's jwks_uri, and accepts the issuer as audience", async () => {
    const response = await assertionRequest(await assertion(byUri.clientId, { aud: issuer() }));
    expect(response.status).toBe(200);
    expect((await response.json()).token_type).toBe("Bearer");
  });

  it("accepts each jti once", async () => {
    const signed = await assertion(inline.clientId);
    expect((await assertionRequest(signed)).status).toBe(200);
    await expectInvalidClient(await assertionRequest(signed));
  });

  it("refuses an assertion for another client id, whether named in the claims or in client_id", async () => {
    const other = await newKeyCredential(db, "sso-qa", { jwks: { keys: [{ ...publicJwk, kid: "other" }] } });
    const stranger = await generateKeyPair("ES256");
    await expectInvalidClient(await assertionRequest(await assertion(other.clientId, {}, {}, stranger.privateKey)));
    await expectInvalidClient(await assertionRequest(await assertion(inline.clientId), { client_id: other.clientId }));
    await expectInvalidClient(await assertionRequest(await assertion(inline.clientId, { iss: other.clientId })));
  });

  it("refuses another audience, a missing jti or exp, and an exp more than 5 minutes ahead", async () => {
    const now = Math.floor(Date.now() / 1000);
    const { clientId } = await sameKeys();
    expect((await assertionRequest(await assertion(clientId))).status).toBe(200);
    await expectInvalidClient(await assertionRequest(await assertion(clientId, { aud: `${server.url}/gw/platform/oauth2/token` })));
    await expectInvalidClient(await assertionRequest(await assertion(clientId, { aud: "https://elsewhere.example/token" })));
    await expectInvalidClient(await assertionRequest(await assertion(clientId, { jti: undefined })));
    await expectInvalidClient(await assertionRequest(await assertion(clientId, { exp: undefined })));
    await expectInvalidClient(await assertionRequest(await assertion(clientId, { exp: now + 600 })));
    await expectInvalidClient(await assertionRequest(await assertion(clientId, { exp: now - 60 })));
  });

  it("refuses HS256 and unsigned assertions", async () => {
    const { clientId } = await sameKeys();
    expect((await assertionRequest(await assertion(clientId))).status).toBe(200);
    const hs256 = await assertion(clientId, {}, { alg: "HS256" }, new TextEncoder().encode("x".repeat(32)));
    await expectInvalidClient(await assertionRequest(hs256));
    const [, payload] = (await assertion(clientId)).split(".");
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${payload}.`;
    await expectInvalidClient(await assertionRequest(unsigned));
  });

  it("refuses a secret for a credential with keys, an assertion for one with a secret, and never issues it a secret", async () => {
    await expectInvalidClient(
      await tokenRequest(server, "sso-qa", { headers: { authorization: basic(inline.clientId, "gsk_anything") }, body: "grant_type=client_credentials" }),
    );
    const withSecret = await newCredential(db, "sso-qa");
    await expectInvalidClient(await assertionRequest(await assertion(withSecret.clientId)));
    for (const attempt of [
      () => issueSecret({ db, actor: CLI_ACTOR, clientId: inline.clientId, authSecret: SERVER_AUTH_SECRET }),
      () => rotateSecret({ db, actor: CLI_ACTOR, clientId: inline.clientId, graceSeconds: 0, authSecret: SERVER_AUTH_SECRET }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: "credential-without-secrets" });
    }
  });

  it("refuses a wrong assertion type, and a secret sent beside an assertion, as invalid_request", async () => {
    const signed = await assertion(inline.clientId);
    const wrongType = await assertionRequest(signed, { client_assertion_type: "urn:example:other" });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).error).toBe("invalid_request");
    const both = await assertionRequest(signed, { client_secret: "gsk_anything" });
    expect(both.status).toBe(400);
    expect((await both.json()).error_description).toMatch(/one method/);
  });

  it("treats assertion parameters sent empty as omitted (RFC 6749 §3.2), as Swagger UI sends them beside a secret", async () => {
    const withSecret = await newCredential(db, "sso-qa");
    const response = await tokenRequest(server, "sso-qa", {
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: withSecret.clientId,
        client_secret: withSecret.clientSecret,
        client_assertion_type: "",
        client_assertion: "",
      }).toString(),
    });
    expect(response.status).toBe(200);
  });

  it("refuses invalid keys when the credential is created", async () => {
    const { d: _private, ...rest } = await exportJWK((await generateKeyPair("ES256", { extractable: true })).privateKey);
    await expect(newKeyCredential(db, "sso-qa", { jwks: { keys: [{ ...rest, d: "private" }] } })).rejects.toMatchObject({ code: "validation-failed" });
    await expect(newKeyCredential(db, "sso-qa", { jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } })).rejects.toMatchObject({ code: "validation-failed" });
    await expect(newKeyCredential(db, "sso-qa", { jwksUri: "ftp://keys.example/jwks.json" })).rejects.toMatchObject({ code: "validation-failed" });
  });

  it("is set from the admin CLI with --jwks-file or --jwks-uri, which print no secret", { timeout: 120_000 }, async () => {
    const directory = await mkdtemp(join(tmpdir(), "gatehouse-jwks-"));
    try {
      const file = join(directory, "jwks.json");
      await writeFile(file, JSON.stringify({ keys: [publicJwk] }));
      const created = await runAdmin(server.databaseUrl, "credential", "create", "--app", "CLI Keys", "--env", "sso-qa", "--jwks-file", file, "--json");
      expect(created.code).toBe(0);
      const output = JSON.parse(created.stdout);
      expect(output).toMatchObject({ clientId: expect.stringMatching(/^gci_/), clientSecret: null, authMethod: "private_key_jwt" });
      expect((await assertionRequest(await assertion(output.clientId))).status).toBe(200);

      const byUrl = await runAdmin(
        server.databaseUrl,
        "credential",
        "create",
        "--app",
        "CLI Keys URL",
        "--env",
        "sso-qa",
        "--jwks-uri",
        keyServerUrl,
        "--json",
      );
      expect(byUrl.code).toBe(0);
      const stored = await db.credential.findUniqueOrThrow({ where: { clientId: JSON.parse(byUrl.stdout).clientId } });
      expect(stored).toMatchObject({ authMethod: "PRIVATE_KEY_JWT", jwksUri: keyServerUrl, jwks: null });

      const both = await runAdmin(
        server.databaseUrl,
        "credential",
        "create",
        "--app",
        "CLI Both",
        "--env",
        "sso-qa",
        "--jwks-file",
        file,
        "--jwks-uri",
        keyServerUrl,
      );
      expect(both.code).not.toBe(0);
      expect(both.stderr).toContain("--jwks-file or --jwks-uri, not both");
      await writeFile(file, JSON.stringify({ keys: [{ kty: "oct", k: "c2VjcmV0" }] }));
      const symmetric = await runAdmin(server.databaseUrl, "credential", "create", "--app", "CLI Oct", "--env", "sso-qa", "--jwks-file", file);
      expect(symmetric.code).not.toBe(0);
      expect(symmetric.stderr).toContain("--jwks-file");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("is set through the management API, which then refuses to rotate a secret the credential does not have", { timeout: 120_000 }, async () => {
    const run = await runAdmin(
      server.databaseUrl,
      "token",
      "create",
      "--user",
      "developer@example.com",
      "--scopes",
      "credentials:read credentials:write",
      "--expires-in",
      "1d",
      "--json",
    );
    const { token } = JSON.parse(run.stdout) as { token: string };
    const call = (path: string, body: unknown) =>
      fetch(`${server.url}/api/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    const created = await call("/credentials", { application: "Keys from CI", environment: "platform-dev", jwks: { keys: [publicJwk] } });
    expect(created.status).toBe(201);
    const { credential, secret } = await created.json();
    expect(secret).toBeNull();
    expect(credential.authentication).toEqual({ method: "private_key_jwt", jwksUri: null, keyIds: ["ci-key-1"] });
    const signed = await assertion(credential.clientId, { aud: `${server.url}/gw/platform-dev/oauth2/token` });
    const issued = await tokenRequest(server, "platform-dev", {
      body: new URLSearchParams({ grant_type: "client_credentials", client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: signed }).toString(),
    });
    expect(issued.status).toBe(200);

    const rotation = await call(`/credentials/${credential.clientId}/secrets`, { overlapSeconds: 0 });
    expect(rotation.status).toBe(409);
    expect((await rotation.json()).type).toMatch(/\/problems\/credential-without-secrets$/);

    const both = await call("/credentials", { application: "Keys twice", environment: "platform-dev", jwks: { keys: [publicJwk] }, jwksUri: keyServerUrl });
    expect(both.status).toBe(400);
    expect((await both.json()).errors).toEqual([expect.objectContaining({ field: "jwksUri" })]);
  });

  it("gets a token with the documented openid-client sample from a gateway on this machine, over http", async () => {
    const page = readFileSync(join(import.meta.dirname, "..", "..", "docs", "machine-credentials.md"), "utf8");
    const sample = /With a library[\s\S]*?```js\n([\s\S]*?)```/.exec(page)![1]!;
    const rsa = await generateKeyPair("RS256", { extractable: true });
    const directory = await mkdtemp(join(tmpdir(), "openid-client-sample-"));
    try {
      const keyFile = join(directory, "client-key.pem");
      await writeFile(keyFile, await exportPKCS8(rsa.privateKey));
      const jwk = { ...(await exportJWK(rsa.publicKey)), kid: "ci-1", alg: "RS256", use: "sig" };
      const { clientId } = await newKeyCredential(db, "platform-dev", { jwks: { keys: [jwk] } });
      // --eval resolves the sample's imports from the working directory, this project's node_modules.
      const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "--eval", sample], {
        cwd: join(import.meta.dirname, "..", ".."),
        env: { ...process.env, GATEHOUSE_URL: server.url, CLIENT_ID: clientId, PRIVATE_KEY_FILE: keyFile },
      });
      expect(decodeJwtPart(stdout.trim(), 1)).toMatchObject({ client_id: clientId, iss: `${server.url}/gw/platform-dev` });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
