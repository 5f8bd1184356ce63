// DPoP (RFC 9449) at the token endpoint and the gateway, with openid-client (oauth4webapi's DPoP) as
// an independent client and hand-made proofs for every refusal.
import { execFile } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createNewCredential } from "../../lib/credentials/new-credential";
import { dpopSample } from "../../lib/catalog/dpop-sample";
import { CLIENT_ASSERTION_TYPE } from "../../lib/oauth/assertion-rules";
import { introspectionResponseSchema, tokenResponseSchema } from "../../lib/oauth/schemas";
import { trustIssuer } from "../../lib/credentials/credentials";
import { runAdmin } from "../support/admin-cli";
import { type Issuer, ISSUER_AUDIENCE, startIssuer } from "../support/oidc-issuer";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { freePort, startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import {
  basic,
  decodeJwtPart,
  eventually,
  GATEWAY_PROCESSES,
  newCredential,
  newKeyCredential,
  openDb,
  registerProxyApi,
  tokenRequest,
} from "./gateway-support";
import { signedIn } from "./portal-session";

const GATEWAY_ONLY = GATEWAY_PROCESSES[1];
const cleanups: (() => Promise<unknown>)[] = [];
let gatewayOnly: TestServer;
let second: TestServer;
let full: TestServer;
let db: Db;
let upstream: Server;
let upstreamSaw: IncomingHttpHeaders | undefined;
let pair: CryptoKeyPair;
let jwk: JWK;
let jkt: string;
let issuer: Issuer;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    upstreamSaw = request.headers;
    response.setHeader("content-type", "application/json");
    response.end("{}");
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
  issuer = await startIssuer();
  cleanups.push(() => new Promise((resolve) => issuer.server.close(resolve)));
  const redis = isolatedRedisPrefix();
  cleanups.push(redis.cleanup);
  const database: TestDatabase = await createTestDatabase();
  cleanups.push(() => database.drop());
  // Two instances of one deployment, on one Redis: one public URL, so one issuer and one htu.
  // OUTBOUND_ALLOW_PRIVATE lets them fetch the federated issuer's keys from this machine.
  const port = await freePort();
  const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redis.prefix, PUBLIC_URL: `http://127.0.0.1:${port}`, OUTBOUND_ALLOW_PRIVATE: "1" };
  gatewayOnly = await startServer({ database, env: { ...env, ...GATEWAY_ONLY!.env }, nodeArgs: GATEWAY_ONLY!.nodeArgs, port });
  cleanups.push(() => gatewayOnly.stop());
  second = await startServer({ database, env: { ...env, ...GATEWAY_ONLY!.env }, nodeArgs: GATEWAY_ONLY!.nodeArgs });
  cleanups.push(() => second.stop());
  full = await startServer();
  cleanups.push(() => full.stop());
  db = openDb(gatewayOnly);
  cleanups.push(() => db.$disconnect());
  await registerProxyApi(db, { slug: "echo", upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, scopes: ["echo:read"] });
  pair = await generateKeyPair("ES256", { extractable: true });
  jwk = await exportJWK(pair.publicKey);
  jkt = await calculateJwkThumbprint(jwk, "sha256");
}, 240_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const ath = (token: string) => createHash("sha256").update(token).digest("base64url");

type ProofOptions = { claims?: Record<string, unknown>; header?: Record<string, unknown>; key?: CryptoKey | Uint8Array; alg?: string };

function proof(htm: string, htu: string, { claims = {}, header = {}, key = pair.privateKey, alg = "ES256" }: ProofOptions = {}) {
  return new SignJWT({ jti: randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000), ...claims })
    .setProtectedHeader({ alg, typ: "dpop+jwt", jwk, ...header })
    .sign(key);
}

const tokenUrl = (server: TestServer, envSlug = "sso-qa") => `${server.url}/gw/${envSlug}/oauth2/token`;

async function boundToken(server: TestServer, credential: { clientId: string; clientSecret: string }, options: ProofOptions = {}) {
  const response = await tokenRequest(server, "sso-qa", {
    headers: { authorization: basic(credential.clientId, credential.clientSecret), dpop: await proof("POST", tokenUrl(server), options) },
    body: "grant_type=client_credentials",
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function expectOAuthError(response: Response, error: string) {
  expect(response.status).toBe(400);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await response.json()).toMatchObject({ error });
}

async function expectProblem(response: Response, code: string, check?: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("www-authenticate")).toMatch(/^DPoP algs="ES256 ES384 RS256 PS256 EdDSA", error="/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.type).toMatch(new RegExp(`/problems/${code}$`));
  expect(body.requestId).toEqual(expect.any(String));
  if (check) expect(body.check).toBe(check);
  return body;
}

describe("the token endpoint", () => {
  it("binds the token to the proof's key with every client authentication, and lists the algorithms", async () => {
    const credential = await newCredential(db, "sso-qa");
    const response = await tokenRequest(gatewayOnly, "sso-qa", {
      headers: { authorization: basic(credential.clientId, credential.clientSecret), dpop: await proof("POST", tokenUrl(gatewayOnly)) },
      body: "grant_type=client_credentials",
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe("DPoP");
    expect(tokenResponseSchema.safeParse(body).success).toBe(true);
    expect(decodeJwtPart(body.access_token, 1).cnf).toEqual({ jkt });
    const metadata = await (await fetch(`${gatewayOnly.url}/gw/sso-qa/.well-known/oauth-authorization-server`)).json();
    expect(metadata.dpop_signing_alg_values_supported).toEqual(["ES256", "ES384", "RS256", "PS256", "EdDSA"]);
    const introspected = await fetch(`${gatewayOnly.url}/gw/sso-qa/oauth2/introspect`, {
      method: "POST",
      headers: { authorization: basic(credential.clientId, credential.clientSecret), "content-type": "application/x-www-form-urlencoded" },
      body: `token=${body.access_token}`,
    });
    const inspected = await introspected.json();
    expect(inspected).toMatchObject({ active: true, token_type: "DPoP", cnf: { jkt } });
    expect(introspectionResponseSchema.safeParse(inspected).success).toBe(true);

    // private_key_jwt: the client's assertion key and its DPoP key are apart.
    const signing = await generateKeyPair("ES256", { extractable: true });
    const keyed = await newKeyCredential(db, "sso-qa", { jwks: { keys: [{ ...(await exportJWK(signing.publicKey)), kid: "k1", alg: "ES256", use: "sig" }] } });
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: keyed.clientId, sub: keyed.clientId, aud: tokenUrl(gatewayOnly), jti: randomUUID(), iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .sign(signing.privateKey);
    const byKey = await tokenRequest(gatewayOnly, "sso-qa", {
      headers: { dpop: await proof("POST", tokenUrl(gatewayOnly)) },
      body: new URLSearchParams({ grant_type: "client_credentials", client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion }).toString(),
    });
    expect(byKey.status).toBe(200);
    const keyedToken = ((await byKey.json()) as { access_token: string; token_type: string }).access_token;
    expect(decodeJwtPart(keyedToken, 1).cnf).toEqual({ jkt });

    // Federation: the client authenticates with its issuer's ID token, and binds the token to its DPoP key.
    const federated = await newCredential(db, "sso-qa");
    await trustIssuer({ db, actor: CLI_ACTOR, clientId: federated.clientId, trust: { issuer: issuer.url, audience: ISSUER_AUDIENCE, subject: "repo:acme/*" } });
    const byIssuer = await tokenRequest(gatewayOnly, "sso-qa", {
      headers: { dpop: await proof("POST", tokenUrl(gatewayOnly)) },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: federated.clientId,
        client_assertion_type: CLIENT_ASSERTION_TYPE,
        client_assertion: await issuer.sign(),
      }).toString(),
    });
    expect(byIssuer.status).toBe(200);
    const federatedBody = (await byIssuer.json()) as { access_token: string; token_type: string };
    expect(federatedBody.token_type).toBe("DPoP");
    expect(decodeJwtPart(federatedBody.access_token, 1).cnf).toEqual({ jkt });
  });

  it("refuses a bad proof with invalid_dpop_proof, before issuing anything", async () => {
    const credential = await newCredential(db, "sso-qa");
    const send = async (dpop: string) =>
      tokenRequest(gatewayOnly, "sso-qa", {
        headers: { authorization: basic(credential.clientId, credential.clientSecret), dpop },
        body: "grant_type=client_credentials",
      });
    await expectOAuthError(await send(await proof("GET", tokenUrl(gatewayOnly))), "invalid_dpop_proof");
    await expectOAuthError(await send(await proof("POST", `${gatewayOnly.url}/gw/sso-qa/oauth2/revoke`)), "invalid_dpop_proof");
    await expectOAuthError(await send(await proof("POST", tokenUrl(gatewayOnly), { header: { jwk: await exportJWK(pair.privateKey) } })), "invalid_dpop_proof");
    await expectOAuthError(
      await send(await proof("POST", tokenUrl(gatewayOnly), { key: new TextEncoder().encode("0123456789abcdef0123456789abcdef"), alg: "HS256" })),
      "invalid_dpop_proof",
    );
    const once = await proof("POST", tokenUrl(gatewayOnly));
    expect((await send(once)).status).toBe(200);
    await expectOAuthError(await send(once), "invalid_dpop_proof");
  });

  it("gives a credential that requires DPoP no token without a proof", async () => {
    const credential = await newCredential(db, "sso-qa");
    await db.credential.update({ where: { clientId: credential.clientId }, data: { requireDpop: true } });
    const bare = () =>
      tokenRequest(gatewayOnly, "sso-qa", {
        headers: { authorization: basic(credential.clientId, credential.clientSecret) },
        body: "grant_type=client_credentials",
      });
    let refused: Response | undefined;
    expect(await eventually(async () => (refused = await bare()).status === 400)).toBe(true);
    await expectOAuthError(refused!, "invalid_dpop_proof");
    expect(decodeJwtPart(await boundToken(gatewayOnly, credential), 1).cnf).toEqual({ jkt });
  });
});

describe("requiring DPoP", () => {
  const bareToken = (credential: { clientId: string; clientSecret: string }) =>
    tokenRequest(gatewayOnly, "sso-qa", {
      headers: { authorization: basic(credential.clientId, credential.clientSecret) },
      body: "grant_type=client_credentials",
    });

  it("per credential: admin credential create --dpop, and the body /api/v1 and the portal send", async () => {
    const run = await runAdmin(gatewayOnly.databaseUrl, "credential", "create", "--app", `DPoP CLI ${randomUUID()}`, "--env", "sso-qa", "--dpop", "--json");
    expect(run.code).toBe(0);
    const created = JSON.parse(run.stdout) as { clientId: string; clientSecret: string; requireDpop: boolean };
    expect(created.requireDpop).toBe(true);
    await expectOAuthError(await bareToken(created), "invalid_dpop_proof");
    const { credential } = await createNewCredential({
      db,
      input: { application: `DPoP API ${randomUUID()}`, environment: "sso-qa", requireDpop: true },
      by: { operator: CLI_ACTOR, ownerId: null },
    });
    expect(credential.requireDpop).toBe(true);
    expect(await db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId } })).toMatchObject({ requireDpop: true });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "credential.create", targetId: credential.clientId } });
    expect(audit.details).toMatchObject({ requireDpop: true });
  });

  it("per credential: the portal's switch turns it on and off for an existing credential, audited, for its owner only", async () => {
    const developer = await signedIn(full, "developer@example.com", TEST_DEVELOPER_PASSWORD);
    const created = await developer.post("/api/portal/credentials", { application: `DPoP Switch ${randomUUID()}`, environment: "sso-qa" });
    expect(created.status).toBe(201);
    const { clientId, clientSecret } = ((await created.json()) as { secret: { clientId: string; clientSecret: string } }).secret;
    const path = `/api/portal/credentials/${clientId}/dpop`;
    const bare = () => tokenRequest(full, "sso-qa", { headers: { authorization: basic(clientId, clientSecret) }, body: "grant_type=client_credentials" });
    expect((await bare()).status).toBe(200);

    const on = await developer.put(path, { requireDpop: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ clientId, requireDpop: true, dpopRequiredBy: { credential: true, environment: false } });
    const fullDb = openDb(full);
    try {
      expect(await fullDb.credential.findUniqueOrThrow({ where: { clientId } })).toMatchObject({ requireDpop: true });
      const audit = await fullDb.auditEvent.findFirstOrThrow({ where: { action: "credential.dpop", targetId: clientId } });
      expect(audit).toMatchObject({ actorLabel: "developer@example.com", details: { requireDpop: true } });
      let refused: Response | undefined;
      expect(await eventually(async () => (refused = await bare()).status === 400)).toBe(true);
      await expectOAuthError(refused!, "invalid_dpop_proof");
      expect(await (await developer.get("/settings/credentials")).text()).toContain("Stop requiring DPoP");

      // Another user's credential answers as a missing one; bad bodies name their field.
      const admin = await signedIn(full, "admin@example.com", TEST_ADMIN_PASSWORD);
      const foreign = await admin.put(path, { requireDpop: false });
      expect(foreign.status).toBe(404);
      expect(foreign.headers.get("content-type")).toBe("application/problem+json");
      expect(await foreign.json()).toMatchObject({ type: `${full.url}/problems/not-found`, requestId: expect.any(String) });
      for (const [body, field] of [
        [{ requireDpop: "yes" }, "requireDpop"],
        [{ requireDpop: false, extra: 1 }, "extra"],
        [{}, "requireDpop"],
      ] as const) {
        const refused = await developer.put(path, body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(((await refused.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual([field]);
      }
      expect((await developer.put(`/api/portal/credentials/${"x".repeat(5_000)}/dpop`, { requireDpop: true })).status).toBe(404);
      expect(await fullDb.credential.findUniqueOrThrow({ where: { clientId } })).toMatchObject({ requireDpop: true });

      const off = await developer.put(path, { requireDpop: false });
      expect(off.status).toBe(200);
      expect(await eventually(async () => (await bare()).status === 200)).toBe(true);
      expect(await fullDb.auditEvent.count({ where: { action: "credential.dpop", targetId: clientId } })).toBe(2);

      // The same switch through /api/v1, with the owner's personal access token.
      const created = await runAdmin(
        full.databaseUrl,
        "token",
        "create",
        "--user",
        "developer@example.com",
        "--scopes",
        "credentials:write",
        "--expires-in",
        "1d",
        "--json",
      );
      const pat = (JSON.parse(created.stdout) as { token: string }).token;
      const viaApi = await fetch(`${full.url}/api/v1/credentials/${clientId}/dpop`, {
        method: "PUT",
        headers: { authorization: `Bearer ${pat}`, "content-type": "application/json" },
        body: JSON.stringify({ requireDpop: true }),
      });
      expect(viaApi.status).toBe(200);
      expect(await viaApi.json()).toMatchObject({ clientId, requireDpop: true });
      expect(await fullDb.credential.findUniqueOrThrow({ where: { clientId } })).toMatchObject({ requireDpop: true });
      expect(await fullDb.auditEvent.count({ where: { action: "credential.dpop", targetId: clientId } })).toBe(3);
    } finally {
      await fullDb.$disconnect();
    }
  });

  it("the portal's DPoP sample program gets a bound token and calls the API", async () => {
    const credential = await newCredential(db, "sso-qa", { scopes: ["echo:read"] });
    await db.credential.update({ where: { clientId: credential.clientId }, data: { requireDpop: true } });
    const program = join(mkdtempSync(join(tmpdir(), "gatehouse-dpop-sample-")), "call.cjs");
    const call = { tokenEndpoint: tokenUrl(gatewayOnly), serverUrl: `${gatewayOnly.url}/gw/sso-qa/echo`, operation: { method: "GET", path: "/items" } };
    writeFileSync(program, dpopSample(call));
    const { stdout } = await promisify(execFile)(process.execPath, [program], {
      env: { ...process.env, CLIENT_ID: credential.clientId, CLIENT_SECRET: credential.clientSecret },
    });
    expect(stdout.trim()).toBe("200 {}");
  });

  it("per environment: requireDpop in the configuration file", async () => {
    const folder = mkdtempSync(join(tmpdir(), "gatehouse-dpop-"));
    const path = join(folder, "gatehouse.yaml");
    writeFileSync(
      path,
      "environments:\n  - slug: dpop-only\n    name: DPoP only\n    credentialType: PLATFORM\n    selfService: true\n    requireDpop: true\n    dpopNonce: true\n",
    );
    expect(await runAdmin(gatewayOnly.databaseUrl, "config", "apply", "-f", path)).toMatchObject({
      code: 0,
      stdout: "changed:\n  create environment dpop-only\n",
    });
    expect(await db.environment.findUniqueOrThrow({ where: { slug: "dpop-only" } })).toMatchObject({ requireDpop: true, dpopNonce: true });
    const credential = await newCredential(db, "dpop-only");
    const bare = () =>
      tokenRequest(gatewayOnly, "dpop-only", {
        headers: { authorization: basic(credential.clientId, credential.clientSecret) },
        body: "grant_type=client_credentials",
      });
    let refused: Response | undefined;
    expect(await eventually(async () => (refused = await bare()).status === 400)).toBe(true);
    await expectOAuthError(refused!, "invalid_dpop_proof");
    const exported = await runAdmin(gatewayOnly.databaseUrl, "config", "export");
    expect(exported.stdout).toContain("requireDpop: true");
  });
});

describe("the gateway", () => {
  const api = (server: TestServer) => `${server.url}/gw/sso-qa/echo/items`;
  const call = async (server: TestServer, token: string, headers: Record<string, string> = {}, url = api(server), method = "GET") =>
    fetch(url, { method, headers: { authorization: `DPoP ${token}`, ...headers } });

  it("forwards a DPoP call without its proof, and refuses each failed check by name", async () => {
    const credential = await newCredential(db, "sso-qa", { scopes: ["echo:read"] });
    const token = await boundToken(gatewayOnly, credential);
    const good = () => proof("GET", api(gatewayOnly), { claims: { ath: ath(token) } });
    const ok = await call(gatewayOnly, token, { dpop: await good() }, `${api(gatewayOnly)}?page=2`);
    expect(ok.status).toBe(200);
    expect(upstreamSaw?.dpop).toBeUndefined();
    expect(upstreamSaw?.authorization).toBeUndefined();

    const replayed = await good();
    expect((await call(gatewayOnly, token, { dpop: replayed })).status).toBe(200);
    await expectProblem(await call(gatewayOnly, token, { dpop: replayed }), "dpop-proof-invalid", "jti");
    // The second instance shares the used jtis through Redis.
    await expectProblem(await call(second, token, { dpop: replayed }, api(gatewayOnly).replace(gatewayOnly.url, second.url)), "dpop-proof-invalid", "jti");

    const otherUrl = await proof("GET", `${gatewayOnly.url}/gw/sso-qa/echo/other`, { claims: { ath: ath(token) } });
    await expectProblem(await call(gatewayOnly, token, { dpop: otherUrl }), "dpop-proof-invalid", "htu");
    await expectProblem(await call(gatewayOnly, token, { dpop: await good() }, api(gatewayOnly), "DELETE"), "dpop-proof-invalid", "htm");
    const stale = await proof("GET", api(gatewayOnly), { claims: { ath: ath(token), iat: Math.floor(Date.now() / 1000) - 120 } });
    await expectProblem(await call(gatewayOnly, token, { dpop: stale }), "dpop-proof-invalid", "iat");
    const withoutAth = await proof("GET", api(gatewayOnly));
    await expectProblem(await call(gatewayOnly, token, { dpop: withoutAth }), "dpop-proof-invalid", "ath");
    const privateJwk = await proof("GET", api(gatewayOnly), { claims: { ath: ath(token) }, header: { jwk: await exportJWK(pair.privateKey) } });
    await expectProblem(await call(gatewayOnly, token, { dpop: privateJwk }), "dpop-proof-invalid", "jwk");
    const hs256 = await proof("GET", api(gatewayOnly), {
      claims: { ath: ath(token) },
      key: new TextEncoder().encode("0123456789abcdef0123456789abcdef"),
      alg: "HS256",
    });
    await expectProblem(await call(gatewayOnly, token, { dpop: hs256 }), "dpop-proof-invalid", "alg");
    const otherKey = await generateKeyPair("ES256", { extractable: true });
    const otherJwk = await exportJWK(otherKey.publicKey);
    const foreign = await proof("GET", api(gatewayOnly), { claims: { ath: ath(token) }, key: otherKey.privateKey, header: { jwk: otherJwk } });
    await expectProblem(await call(gatewayOnly, token, { dpop: foreign }), "dpop-proof-invalid", "jkt");
    const two = await fetch(api(gatewayOnly), {
      headers: [
        ["authorization", `DPoP ${token}`],
        ["dpop", await good()],
        ["dpop", await good()],
      ],
    });
    await expectProblem(two, "dpop-proof-invalid", "header");
    await expectProblem(await call(gatewayOnly, token, { dpop: "e".repeat(9_000) }), "dpop-proof-invalid", "header");
    await expectProblem(await call(gatewayOnly, token), "dpop-proof-invalid", "header");
  });

  it("refuses a bound token sent as Bearer, and a bearer token sent as DPoP", async () => {
    const credential = await newCredential(db, "sso-qa", { scopes: ["echo:read"] });
    const token = await boundToken(gatewayOnly, credential);
    const downgraded = await fetch(api(gatewayOnly), { headers: { authorization: `Bearer ${token}` } });
    const body = await expectProblem(downgraded, "dpop-token-bound");
    expect(body.status).toBe(401);
    expect(downgraded.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const bearer = await tokenRequest(gatewayOnly, "sso-qa", {
      headers: { authorization: basic(credential.clientId, credential.clientSecret) },
      body: "grant_type=client_credentials",
    });
    const bearerToken = ((await bearer.json()) as { access_token: string }).access_token;
    const asDpop = await call(gatewayOnly, bearerToken, { dpop: await proof("GET", api(gatewayOnly), { claims: { ath: ath(bearerToken) } }) });
    await expectProblem(asDpop, "dpop-proof-invalid", "jkt");
  });

  it("asks for the environment's nonce at the token endpoint and the gateway when it requires one", async () => {
    await db.environment.update({ where: { slug: "sso-qa" }, data: { dpopNonce: true } });
    try {
      const credential = await newCredential(db, "sso-qa", { scopes: ["echo:read"] });
      const ask = async (nonce?: string) =>
        tokenRequest(gatewayOnly, "sso-qa", {
          headers: {
            authorization: basic(credential.clientId, credential.clientSecret),
            dpop: await proof("POST", tokenUrl(gatewayOnly), { claims: { nonce } }),
          },
          body: "grant_type=client_credentials",
        });
      expect(await eventually(async () => (await ask()).status === 400)).toBe(true);
      const refused = await ask();
      const nonce = refused.headers.get("dpop-nonce")!;
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      await expectOAuthError(refused, "use_dpop_nonce");
      const issued = await ask(nonce);
      expect(issued.status).toBe(200);
      const token = ((await issued.json()) as { access_token: string }).access_token;
      const withoutNonce = await call(gatewayOnly, token, { dpop: await proof("GET", api(gatewayOnly), { claims: { ath: ath(token) } }) });
      await expectProblem(withoutNonce, "dpop-nonce-required");
      expect(withoutNonce.headers.get("www-authenticate")).toContain('error="use_dpop_nonce"');
      const resourceNonce = withoutNonce.headers.get("dpop-nonce")!;
      const withNonce = await call(gatewayOnly, token, { dpop: await proof("GET", api(gatewayOnly), { claims: { ath: ath(token), nonce: resourceNonce } }) });
      expect(withNonce.status).toBe(200);
    } finally {
      await db.environment.update({ where: { slug: "sso-qa" }, data: { dpopNonce: false } });
    }
  });
});

describe.each([
  ["the gateway-only process", () => gatewayOnly, () => db],
  ["the full server", () => full, () => openDb(full)],
])("an oauth4webapi client (openid-client) on %s", (_name, server, database) => {
  it("gets a DPoP-bound token and calls the API with it", async () => {
    const own = database();
    if (server() === full) {
      await registerProxyApi(own, { slug: "echo", upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, scopes: ["echo:read"] });
      // The server serves the API once its directory has read the registration: then a call without a token is refused, not unknown.
      expect(await eventually(async () => (await fetch(`${full.url}/gw/sso-qa/echo/items`)).status === 401)).toBe(true);
    }
    const credential = await newCredential(own, "sso-qa", { scopes: ["echo:read"] });
    const configuration = await client.discovery(
      new URL(`${server().url}/gw/sso-qa`),
      credential.clientId,
      undefined,
      client.ClientSecretBasic(credential.clientSecret),
      { algorithm: "oauth2", execute: [client.allowInsecureRequests] },
    );
    const DPoP = client.getDPoPHandle(configuration, await client.randomDPoPKeyPair("ES256"));
    const tokens = await client.clientCredentialsGrant(configuration, { scope: "echo:read" }, { DPoP });
    expect(tokens.token_type).toBe("dpop");
    const response = await client.fetchProtectedResource(
      configuration,
      tokens.access_token,
      new URL(`${server().url}/gw/sso-qa/echo/items`),
      "GET",
      undefined,
      undefined,
      { DPoP },
    );
    expect(response.status).toBe(200);
    expect(upstreamSaw?.dpop).toBeUndefined();
    if (own !== db) await own.$disconnect();
  });
});
