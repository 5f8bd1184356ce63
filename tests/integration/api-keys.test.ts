// API keys (issue 51, decision 064): created, rolled, revoked and listed from the CLI, and used
// at the gateway as `X-API-Key` or `Authorization: Bearer gk_…` on the full server and the
// gateway-only process on one database, beside tokens on an API that accepts both.
import { generateKeyPairSync, sign as cryptoSign } from "node:crypto";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataPlaneStore } from "../../lib/data-plane/store-for-connection";
import { openDriver } from "../../lib/data-plane/connection";
import { createTestDatabase } from "../../lib/database/test-databases";
import type { Db } from "../../lib/db";
import { generateApiKey } from "../../lib/oauth/api-key-format";
import { createApiKeyStates } from "../../lib/oauth/api-key-states";
import { createCredentialStates } from "../../lib/oauth/credential-states";
import { createKeyAuthenticator } from "../../lib/gateway/policies/authentication/api-key";
import { hashClientSecret } from "../../lib/oauth/client-secrets";
import type { GatewayEnvironment } from "../../lib/gateway/directory";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { teamsOfEvent } from "../../lib/events/event-teams";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { DEMO_ADMIN_EMAIL, DEMO_DEVELOPER_EMAIL } from "../../prisma/seed-data";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import { runAdmin } from "../support/admin-cli";
import { freePort, startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb, SERVER_AUTH_SECRET } from "./gateway-support";
import { signedIn } from "./portal-session";

const ENV = "sso-qa";
const OTHER_ENV = "platform-dev";
const PATH = `/gw/${ENV}/notifications/v1/notifications`;
/** Tests that run the CLI several times, each command seconds long on a loaded machine or PostgreSQL. */
const CLI_TIMEOUT_MS = 90_000;
const cleanups: (() => Promise<unknown>)[] = [];
let full: TestServer;
let gatewayOnly: TestServer;
let db: Db;
let app: string;
let scanningKeys: Awaited<ReturnType<typeof servedScanningKeys>>;

/** A local stand-in for GitHub's published secret scanning keys: one P-256 key that signs reports. */
async function servedScanningKeys() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const identifier = "test-key-1";
  const body = JSON.stringify({ public_keys: [{ key_identifier: identifier, key: publicKey.export({ type: "spki", format: "pem" }), is_current: true }] });
  const server = createServer((_, response) => response.writeHead(200, { "content-type": "application/json" }).end(body));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const sign = (payload: string) => cryptoSign("sha256", Buffer.from(payload), privateKey).toString("base64");
  return { server, url: `http://127.0.0.1:${port}/meta/public_keys/secret_scanning`, identifier, sign };
}

function report(payload: string, headers: Record<string, string>) {
  return fetch(`${full.url}/api/secret-scanning`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: payload });
}

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const port = await freePort();
  scanningKeys = await servedScanningKeys();
  cleanups.push(() => new Promise((resolve) => scanningKeys.server.close(resolve)));
  // GitHub's keys are served from here, on loopback, which the outbound rule allows only with OUTBOUND_ALLOW_PRIVATE.
  const env = { PUBLIC_URL: `http://127.0.0.1:${port}`, SECRET_SCANNING_KEYS_URL: scanningKeys.url, OUTBOUND_ALLOW_PRIVATE: "1" };
  full = await startServer({ database, env, port });
  cleanups.push(() => full.stop());
  gatewayOnly = await startServer({ database, env: { ...env, ...GATEWAY_ENV }, nodeArgs: GATEWAY_NODE_ARGS });
  cleanups.push(() => gatewayOnly.stop());
  db = openDb(full);
  cleanups.push(() => db.$disconnect());
  app = `Keys App ${Date.now()}`;
  await newCredential(db, ENV, { app });
  await db.api.update({ where: { slug: "notifications" }, data: { authentication: "oauth2 apiKey" } });
}, 180_000);

async function cli(...args: string[]) {
  const run = await runAdmin(full.databaseUrl, ...args);
  return { ...run, json: run.code === 0 && args.includes("--json") ? JSON.parse(run.stdout) : undefined };
}

async function createdKey(application = app, env = ENV, ...extra: string[]): Promise<{ key: string; id: string; expiresAt: string | null }> {
  const created = await cli("key", "create", "--app", application, "--env", env, ...extra, "--json");
  expect(created.code, created.stderr).toBe(0);
  return created.json;
}

function call(server: TestServer, headers: Record<string, string>, path = PATH) {
  return fetch(`${server.url}${path}`, { headers });
}

/** Status, problem type and each WWW-Authenticate field line as sent (fetch would join them). */
function rawCall(server: TestServer, headers: Record<string, string>, path = PATH): Promise<{ status: number; challenges: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${server.url}${path}`, { headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => {
        const challenges: string[] = [];
        for (let index = 0; index < response.rawHeaders.length; index += 2) {
          if (response.rawHeaders[index]!.toLowerCase() === "www-authenticate") challenges.push(response.rawHeaders[index + 1]!);
        }
        resolve({ status: response.statusCode!, challenges, body });
      });
    });
    sent.on("error", reject);
    sent.end();
  });
}

async function problemType(response: Response): Promise<string> {
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await response.json()) as { type: string; requestId: string };
  expect(body.requestId).toBeTruthy();
  return body.type.split("/").at(-1)!;
}

describe("API keys", () => {
  it(
    "are created once from the CLI, gk_ + 32 + 6 characters, stored only as an HMAC and a hint",
    async () => {
      const { key, id } = await createdKey();
      expect(key).toMatch(/^gk_[0-9A-Za-z]{38}$/);
      const row = await db.apiKey.findUniqueOrThrow({ where: { id } });
      expect(row.hash).toBe(hashClientSecret(key, SERVER_AUTH_SECRET));
      expect(row.hint).toBe(key.slice(-4));
      const listed = await cli("key", "list", "--app", app, "--json");
      expect(listed.stdout).not.toContain(key);
      expect(listed.json.keys.map((listedKey: { id: string }) => listedKey.id)).toContain(id);
    },
    CLI_TIMEOUT_MS,
  );

  for (const server of ["full", "gatewayOnly"] as const) {
    it(`call the ${server === "full" ? "full server" : "gateway-only process"} as X-API-Key or Bearer, and are never logged`, async () => {
      const { key } = await createdKey();
      const target = server === "full" ? full : gatewayOnly;
      expect((await call(target, { "x-api-key": key })).status).toBe(200);
      expect((await call(target, { authorization: `Bearer ${key}` })).status).toBe(200);
      expect(target.output()).not.toContain(key);
    });
  }

  it("sit beside tokens on an API that takes both, and a refusal names both methods, one WWW-Authenticate each", async () => {
    const client = await newCredential(db, ENV);
    expect((await call(full, { authorization: `Bearer ${await accessToken(full, ENV, client)}` })).status).toBe(200);
    const missing = await rawCall(gatewayOnly, {});
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).type).toMatch(/\/token-missing$/);
    expect(missing.challenges).toEqual([`Bearer realm="${ENV}"`, `ApiKey realm="${ENV}", header="X-API-Key"`]);
    const wrong = await rawCall(full, { "x-api-key": generateApiKey() });
    expect(wrong.challenges).toHaveLength(2);
    expect(wrong.challenges[1]).toMatch(/^ApiKey realm="sso-qa", header="X-API-Key", error="invalid_key"/);
  });

  it(
    "are refused on an API whose methods are set to oauth2 alone through /api/v1, and accepted again once the console adds apiKey, each change audited",
    async () => {
      const { key } = await createdKey();
      const [adminPat, developerPat] = await Promise.all([patFor(DEMO_ADMIN_EMAIL, "admin:read admin:write"), patFor(DEMO_DEVELOPER_EMAIL)]);
      const [admin, developer] = await Promise.all([
        signedIn(full, DEMO_ADMIN_EMAIL, TEST_ADMIN_PASSWORD),
        signedIn(full, DEMO_DEVELOPER_EMAIL, TEST_DEVELOPER_PASSWORD),
      ]);
      const path = "/admin/apis/notifications/authentication";
      const read = await v1(adminPat, path);
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual({ authentication: ["oauth2", "apiKey"] });
      for (const body of [
        { authentication: [] },
        { authentication: ["basic"] },
        { authentication: ["apiKey", "apiKey"] },
        { authentication: ["oauth2"], routes: {} },
        { authentication: Array.from({ length: 500 }, () => "oauth2") },
        "oauth2",
      ]) {
        const refused = await v1(adminPat, path, { method: "PUT", body });
        expect(refused.status, JSON.stringify(body).slice(0, 40)).toBe(400);
        expect(await problemType(refused)).toBe("validation-failed");
      }
      expect(
        await problemType(await v1(adminPat, "/admin/apis/global-sso-token/authentication", { method: "PUT", body: { authentication: ["apiKey"] } })),
      ).toBe("validation-failed");
      expect(await problemType(await v1(adminPat, "/admin/apis/nope/authentication"))).toBe("not-found");
      expect((await v1(developerPat, path, { method: "PUT", body: { authentication: ["oauth2"] } })).status).toBe(403);
      const developerConsole = await developer.put(`/api/portal${path}`, { authentication: ["oauth2"] });
      expect(developerConsole.status).toBe(403);
      expect(developerConsole.headers.get("content-type")).toBe("application/problem+json");

      try {
        const set = await v1(adminPat, path, { method: "PUT", body: { authentication: ["oauth2"] } });
        expect(set.status).toBe(200);
        expect(await set.json()).toEqual({ authentication: ["oauth2"] });
        const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "api.authentication", targetId: "notifications" }, orderBy: { at: "desc" } });
        expect(audit.details).toEqual({ from: ["oauth2", "apiKey"], to: ["oauth2"] });
        expect(await eventually(async () => (await call(full, { "x-api-key": key })).status === 401)).toBe(true);
        const refused = await rawCall(full, { "x-api-key": key });
        expect(refused.challenges).toEqual([`Bearer realm="${ENV}"`]);

        const page = await admin.get("/admin/apis/notifications");
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("Save methods");
        const fromConsole = await admin.put(`/api/portal${path}`, { authentication: ["apiKey", "oauth2"] });
        expect(fromConsole.status).toBe(200);
        expect(await eventually(async () => (await call(full, { "x-api-key": key })).status === 200)).toBe(true);
        // The gateway-only process is an instance of its own, which hears of the change within its second too.
        let challenged: Awaited<ReturnType<typeof rawCall>> | undefined;
        expect(await eventually(async () => (challenged = await rawCall(gatewayOnly, {})).challenges[0]?.startsWith("ApiKey") === true)).toBe(true);
        expect(challenged!.challenges).toEqual([`ApiKey realm="${ENV}", header="X-API-Key"`, `Bearer realm="${ENV}"`]);
      } finally {
        await db.api.update({ where: { slug: "notifications" }, data: { authentication: "oauth2 apiKey" } });
      }
      expect(await eventually(async () => (await call(full, { "x-api-key": key })).status === 200)).toBe(true);
    },
    CLI_TIMEOUT_MS,
  );

  it("with a bad checksum or shape are refused api-key-invalid before any lookup", async () => {
    const { key } = await createdKey();
    const flipped = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    for (const server of [full, gatewayOnly]) {
      expect(await problemType(await call(server, { "x-api-key": flipped }))).toBe("api-key-invalid");
      expect(await problemType(await call(server, { "x-api-key": "gk_short" }))).toBe("api-key-invalid");
      expect(await problemType(await call(server, { "x-api-key": "x".repeat(8_000) }))).toBe("api-key-invalid");
    }
    // The same checks on the gateway's own stores, counting every statement the connection runs.
    let queries = 0;
    const connection = openDriver(full.databaseUrl, { poolSize: 1, onQuery: () => queries++ });
    try {
      const store = createDataPlaneStore(connection);
      const authenticate = createKeyAuthenticator({
        apiKeys: createApiKeyStates({ store, hashKey: (presented) => hashClientSecret(presented, SERVER_AUTH_SECRET) }),
        states: createCredentialStates({ store }),
        lastUsed: { mark: () => undefined, markConsent: () => undefined, flush: async () => undefined },
      });
      const env = { id: (await db.environment.findUniqueOrThrow({ where: { slug: ENV } })).id, slug: ENV } as GatewayEnvironment;
      expect("refusal" in (await authenticate(flipped, env))).toBe(true);
      expect("refusal" in (await authenticate(`${key}0`, env))).toBe(true);
      expect(queries).toBe(0);
      expect("caller" in (await authenticate(key, env))).toBe(true);
      expect(queries).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }
  });

  it("in the query string are ignored: the call is refused as carrying none", async () => {
    const { key } = await createdKey();
    expect(await problemType(await call(full, {}, `${PATH}?api_key=${key}`))).toBe("token-missing");
    expect(await problemType(await call(full, {}, `${PATH}?apikey=${key}&key=${key}`))).toBe("token-missing");
  });

  it("of another environment are refused", async () => {
    const otherApp = `Keys Other ${Date.now()}`;
    await newCredential(db, OTHER_ENV, { app: otherApp });
    const { key } = await createdKey(otherApp, OTHER_ENV);
    expect(await problemType(await call(full, { "x-api-key": key }))).toBe("api-key-invalid");
  });

  it(
    "roll: the old key works for the overlap beside the new one; the overlap is at most 30 days",
    async () => {
      const { key: old, id } = await createdKey();
      const rolled = await cli("key", "roll", id, "--overlap", "1h", "--json");
      expect(rolled.code, rolled.stderr).toBe(0);
      const until = new Date(rolled.json.previous.expiresAt).getTime();
      expect(Math.abs(until - (Date.now() + 3_600_000))).toBeLessThan(60_000);
      expect((await call(full, { "x-api-key": rolled.json.key })).status).toBe(200);
      expect((await call(gatewayOnly, { "x-api-key": old })).status).toBe(200);
      const defaulted = await cli("key", "roll", rolled.json.id, "--json");
      expect(Math.abs(new Date(defaulted.json.previous.expiresAt).getTime() - (Date.now() + 86_400_000))).toBeLessThan(60_000);
      const tooLong = await cli("key", "roll", defaulted.json.id, "--overlap", "31d");
      expect(tooLong.code).not.toBe(0);
      expect(tooLong.stderr).toMatch(/30 days/);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "expired or revoked are refused; the last active key of an application needs --last",
    async () => {
      const lone = `Keys Lone ${Date.now()}`;
      await newCredential(db, ENV, { app: lone });
      const { key, id } = await createdKey(lone);
      const refusedLast = await cli("key", "revoke", id);
      expect(refusedLast.code).toBe(1);
      expect(refusedLast.stderr).toMatch(/last active key/);
      expect((await call(full, { "x-api-key": key })).status).toBe(200);
      const revoked = await cli("key", "revoke", id, "--last", "--json");
      expect(revoked.json.state).toBe("revoked");
      for (const server of [full, gatewayOnly]) {
        expect(await eventually(async () => (await call(server, { "x-api-key": key })).status === 401)).toBe(true);
        expect(await problemType(await call(server, { "x-api-key": key }))).toBe("api-key-invalid");
      }
      const expiring = await createdKey();
      await db.apiKey.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
      expect(await eventually(async () => (await call(full, { "x-api-key": expiring.key })).status === 401)).toBe(true);
      expect(await problemType(await call(full, { "x-api-key": expiring.key }))).toBe("api-key-expired");
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "through /api/v1/keys: a developer creates, lists, rolls and revokes their own; another user's key id answers 404",
    async () => {
      const developer = await db.user.findUniqueOrThrow({ where: { email: DEMO_DEVELOPER_EMAIL } });
      const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: developer.id, name: `Keys Mine ${Date.now()}` });
      await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: ENV, authSecret: SERVER_AUTH_SECRET });
      const [mine, theirs] = await Promise.all([patFor(DEMO_DEVELOPER_EMAIL), patFor(DEMO_ADMIN_EMAIL)]);
      const created = await v1(mine, "/keys", { method: "POST", body: { application: application.name, environment: ENV } });
      expect(created.status).toBe(201);
      const { key, apiKey } = (await created.json()) as { key: string; apiKey: { id: string; hint: string } };
      expect(apiKey.hint).toBe(key.slice(-4));
      expect((await call(full, { "x-api-key": key })).status).toBe(200);
      const listed = (await (await v1(mine, "/keys")).json()) as { keys: { id: string }[] };
      expect(JSON.stringify(listed)).not.toContain(key);
      expect(listed.keys.map((listedKey) => listedKey.id)).toEqual([apiKey.id]);
      expect(((await (await v1(theirs, "/keys")).json()) as { keys: { id: string }[] }).keys.map((other) => other.id)).not.toContain(apiKey.id);
      for (const [method, path] of [
        ["DELETE", `/keys/${apiKey.id}?last=true`],
        ["POST", `/keys/${apiKey.id}/roll`],
      ] as const) {
        const refused = await v1(theirs, path, { method, body: method === "POST" ? {} : undefined });
        expect(refused.status).toBe(404);
        expect(await problemType(refused)).toBe("not-found");
      }
      expect(await problemType(await v1(mine, `/keys/${apiKey.id}/roll`, { method: "POST", body: { overlap: "31d" } }))).toBe("validation-failed");
      const rolled = await v1(mine, `/keys/${apiKey.id}/roll`, { method: "POST", body: { overlap: "1h" } });
      expect(rolled.status).toBe(201);
      const next = (await rolled.json()) as { apiKey: { id: string } };
      expect((await v1(mine, `/keys/${apiKey.id}`, { method: "DELETE" })).status).toBe(200);
      expect(await problemType(await v1(mine, `/keys/${next.apiKey.id}`, { method: "DELETE" }))).toBe("api-key-last");
      expect((await v1(mine, `/keys/${next.apiKey.id}?last=true`, { method: "DELETE" })).status).toBe(200);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "in the portal's Settings → API keys: created and shown once, rolled with an overlap, the last one revoked only when confirmed; another user's key id answers 404",
    async () => {
      const developerUser = await db.user.findUniqueOrThrow({ where: { email: DEMO_DEVELOPER_EMAIL } });
      const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: developerUser.id, name: `Keys Portal ${Date.now()}` });
      await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: ENV, authSecret: SERVER_AUTH_SECRET });
      const [developer, admin] = await Promise.all([
        signedIn(full, DEMO_DEVELOPER_EMAIL, TEST_DEVELOPER_PASSWORD),
        signedIn(full, DEMO_ADMIN_EMAIL, TEST_ADMIN_PASSWORD),
      ]);
      const page = await developer.get("/settings/api-keys");
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(application.name);

      for (const body of [
        { application: application.name },
        { application: "x".repeat(10_000), environment: ENV },
        { ...{ application: application.name, environment: ENV }, hash: "x" },
      ]) {
        const refused = await developer.post("/api/portal/keys", body);
        expect(refused.status).toBe(400);
        expect(await problemType(refused)).toBe("validation-failed");
      }
      const crossSite = await developer.post("/api/portal/keys", { application: application.name, environment: ENV }, { origin: "https://evil.example" });
      expect(await problemType(crossSite)).toBe("cross-site-request");
      expect(await problemType(await admin.post("/api/portal/keys", { application: application.name, environment: ENV }))).toBe("not-found");

      const created = await developer.post("/api/portal/keys", { application: application.name, environment: ENV });
      expect(created.status).toBe(201);
      expect(created.headers.get("cache-control")).toBe("no-store");
      const { key, apiKey } = (await created.json()) as { key: string; apiKey: { id: string; hint: string } };
      expect(key).toMatch(/^gk_[0-9A-Za-z]{38}$/);
      expect((await call(full, { "x-api-key": key })).status).toBe(200);
      const listed = await (await developer.get("/settings/api-keys")).text();
      expect(listed).not.toContain(key);
      expect(listed).toContain(`…${apiKey.hint}`);
      const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "api-key.create", targetId: apiKey.id } });
      expect(JSON.stringify(audit)).not.toContain(key);

      for (const path of [`/api/portal/keys/${apiKey.id}/roll`, `/api/portal/keys/${apiKey.id}/revoke`, "/api/portal/keys/key_nope/revoke"]) {
        const refused = await admin.post(path, path.endsWith("revoke") ? { last: true } : {});
        expect(refused.status, path).toBe(404);
        expect(await problemType(refused)).toBe("not-found");
      }
      expect(await problemType(await developer.post(`/api/portal/keys/${apiKey.id}/roll`, { overlap: "31d" }))).toBe("validation-failed");

      const rolled = await developer.post(`/api/portal/keys/${apiKey.id}/roll`, { overlap: "1h" });
      expect(rolled.status).toBe(201);
      const next = (await rolled.json()) as { key: string; apiKey: { id: string }; previous: { expiresAt: string } };
      expect(Math.abs(new Date(next.previous.expiresAt).getTime() - (Date.now() + 3_600_000))).toBeLessThan(60_000);
      for (const working of [key, next.key]) expect((await call(full, { "x-api-key": working })).status).toBe(200);

      expect((await developer.post(`/api/portal/keys/${apiKey.id}/revoke`, {})).status).toBe(200);
      const last = await developer.post(`/api/portal/keys/${next.apiKey.id}/revoke`, {});
      expect(last.status).toBe(409);
      expect(await problemType(last)).toBe("api-key-last");
      expect((await db.apiKey.findUniqueOrThrow({ where: { id: next.apiKey.id } })).revokedAt).toBeNull();
      const confirmed = await developer.post(`/api/portal/keys/${next.apiKey.id}/revoke`, { last: true });
      expect(confirmed.status).toBe(200);
      expect(((await confirmed.json()) as { state: string }).state).toBe("revoked");
      expect(await eventually(async () => (await call(full, { "x-api-key": next.key })).status === 401)).toBe(true);
    },
    CLI_TIMEOUT_MS,
  );

  it("reported leaked by GitHub's secret scanning are revoked and recorded, after the report's signature checks", async () => {
    const leakedApp = `Keys Leaked ${Date.now()}`;
    await newCredential(db, ENV, { app: leakedApp });
    const { key, id } = await createdKey(leakedApp);
    const unknown = generateApiKey();
    const payload = JSON.stringify([
      { token: key, type: "gatehouse_api_key", url: "https://github.com/octo/app/blob/main/.env", source: "content" },
      { token: unknown, type: "gatehouse_api_key", url: "https://gist.github.com/x", source: "gist" },
    ]);
    const badlySigned: Record<string, string>[] = [
      {},
      { "github-public-key-identifier": scanningKeys.identifier, "github-public-key-signature": scanningKeys.sign(`${payload} `) },
      { "github-public-key-identifier": "another-key", "github-public-key-signature": scanningKeys.sign(payload) },
      { "github-public-key-identifier": scanningKeys.identifier, "github-public-key-signature": "bm90IGEgc2lnbmF0dXJl" },
    ];
    for (const headers of badlySigned) {
      const refused = await report(payload, headers);
      expect(refused.status).toBe(401);
      expect(await problemType(refused)).toBe("secret-scanning-signature-invalid");
    }
    expect((await db.apiKey.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
    const answered = await report(payload, {
      "github-public-key-identifier": scanningKeys.identifier,
      "github-public-key-signature": scanningKeys.sign(payload),
    });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual([
      { token_raw: key, token_type: "gatehouse_api_key", label: "true_positive" },
      { token_raw: unknown, token_type: "gatehouse_api_key", label: "false_positive" },
    ]);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id } })).revokedAt).not.toBeNull();
    const event = await db.outboxEvent.findFirstOrThrow({ where: { type: "api_key.leaked" }, orderBy: { occurredAt: "desc" } });
    expect(JSON.stringify(event.payload)).toContain("https://github.com/octo/app/blob/main/.env");
    expect(JSON.stringify(event.payload)).not.toContain(key);
    const { teamId } = await db.application.findFirstOrThrow({ where: { name: leakedApp }, select: { teamId: true } });
    expect(await teamsOfEvent(db, "api_key.leaked", event.payload)).toEqual([teamId]);
    expect(await eventually(async () => (await call(gatewayOnly, { "x-api-key": key })).status === 401)).toBe(true);
  });
});

async function patFor(email: string, scopes = "credentials:read credentials:write"): Promise<string> {
  const run = await runAdmin(full.databaseUrl, "token", "create", "--user", email, "--scopes", scopes, "--expires-in", "1d", "--json");
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { token: string }).token;
}

function v1(token: string, path: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${full.url}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
