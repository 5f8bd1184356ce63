// A change made from another process (the admin CLI) reaches the gateway's FIRST call after
// a quiet spell longer than GATEWAY_CACHE_MAX_AGE_MS, on both processes: no call is answered
// from configuration read longer ago than that. While the database does not answer, calls
// are refused 503 not-ready rather than answered from the last configuration (decision 042).
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, POSTGRES_SERVER_URL } from "../../lib/database/test-databases";
import type { Db } from "../../lib/db";
import { runAdmin } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { accessToken, basic, GATEWAY_PROCESSES, newCredential, openDb, registerProxyApi, tokenRequest } from "./gateway-support";

const ENV = "sso-qa";
/** The bound under test: short, so that the quiet spells are fractions of a second. */
const MAX_AGE_MS = 300;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** No traffic for longer than the bound. */
const quietSpell = () => new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS * 3));

/** An upstream that answers every call with its own name. */
async function upstream(name: string): Promise<string> {
  const server: HttpServer = createHttpServer((_req, res) => res.setHeader("content-type", "application/json").end(JSON.stringify({ upstream: name })));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const folder = mkdtempSync(join(tmpdir(), "gatehouse-stale-"));

/** `config apply` of one public or protected API served by one target, from a process apart from the server's. */
async function applyApi(server: TestServer, api: { slug: string; visibility: "public" | "protected"; target: string }): Promise<void> {
  const path = join(folder, `${api.slug}-${Date.now()}.yaml`);
  writeFileSync(
    path,
    `apis:
  - slug: ${api.slug}
    name: Proxied ${api.slug}
    summary: A proxied API
    version: 1.0.0
    visibility: ${api.visibility}
    environments:
      ${ENV}:
        targets:
          - url: ${api.target}
`,
  );
  expect(await runAdmin(server.databaseUrl, "config", "apply", "-f", path)).toMatchObject({ code: 0 });
}

function call(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/gw/${ENV}/${path}`, { headers });
}

/** Calls `path` until the gateway has read an API registered in the database (a warm-up, not what is under test). */
async function served(server: TestServer, path: string): Promise<void> {
  await expect.poll(async () => (await call(server, path)).status, { timeout: 10_000, interval: 100 }).toBe(200);
}

describe.each(GATEWAY_PROCESSES)("the first call after a quiet spell on $name", ({ env, nodeArgs }) => {
  let server: TestServer;
  let db: Db;
  let first: string;
  let second: string;

  beforeAll(async () => {
    [first, second] = await Promise.all([upstream("first"), upstream("second")]);
    server = await startServer({ env: { ...env, GATEWAY_CACHE_MAX_AGE_MS: String(MAX_AGE_MS) }, nodeArgs });
    cleanups.push(() => server.stop());
    db = openDb(server);
    cleanups.push(() => db.$disconnect());
  }, 120_000);

  it("is refused 401 once the API was made protected", { timeout: 60_000 }, async () => {
    await registerProxyApi(db, { slug: "turned", upstream: first, isPublic: true });
    await served(server, "turned/orders");
    await applyApi(server, { slug: "turned", visibility: "protected", target: first });
    await quietSpell();
    const refused = await call(server, "turned/orders");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ type: `${server.url}/problems/token-missing` });
  });

  it("is refused 410 once its version was retired", { timeout: 60_000 }, async () => {
    await registerProxyApi(db, { slug: "aged", upstream: first, isPublic: true });
    await served(server, "aged/v1/orders");
    expect(await runAdmin(server.databaseUrl, "api", "retire", "--api", "aged", "--version", "v1")).toMatchObject({ code: 0 });
    await quietSpell();
    const refused = await call(server, "aged/v1/orders");
    expect(refused.status).toBe(410);
    expect(await refused.json()).toMatchObject({ type: `${server.url}/problems/api-version-retired` });
  });

  it("reaches an API created meanwhile", { timeout: 60_000 }, async () => {
    expect((await call(server, "created/orders")).status).toBe(404);
    await applyApi(server, { slug: "created", visibility: "public", target: first });
    await quietSpell();
    const answered = await call(server, "created/orders");
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ upstream: "first" });
  });

  it("goes to the target the upstream was changed to", { timeout: 60_000 }, async () => {
    await registerProxyApi(db, { slug: "moved", upstream: first, isPublic: true });
    await served(server, "moved/orders");
    expect(await (await call(server, "moved/orders")).json()).toEqual({ upstream: "first" });
    await applyApi(server, { slug: "moved", visibility: "public", target: second });
    await quietSpell();
    const answered = await call(server, "moved/orders");
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ upstream: "second" });
  });

  it("is held to the environment's lowered rate limit", { timeout: 60_000 }, async () => {
    const token = await accessToken(server, ENV, await newCredential(db, ENV));
    const before = await call(server, "notifications/v1/notifications", { authorization: `Bearer ${token}` });
    expect(before.headers.get("ratelimit-policy")).toBe('"client";q=100;w=2');
    const lowered = await runAdmin(server.databaseUrl, "environment", "rate-limit", ENV, "--burst", "2", "--per-second", "1");
    expect(lowered).toMatchObject({ code: 0 });
    await quietSpell();
    const after = await call(server, "notifications/v1/notifications", { authorization: `Bearer ${token}` });
    expect(after.status).toBe(200);
    expect(after.headers.get("ratelimit-policy")).toBe('"client";q=2;w=2');
  });
});

/** A TCP relay to PostgreSQL that can stop answering, as a database out of reach does, and answer again. */
async function postgresRelay(serverUrl: string): Promise<{ port: number; cut(): void; restore(): void }> {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  let cut = false;
  const relay: Server = createServer((client) => {
    if (cut) return void client.destroy();
    const database = createConnection(Number(target.port || 5432), target.hostname);
    for (const socket of [client, database]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(database).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => relay.close(resolve)));
  return {
    port: (relay.address() as AddressInfo).port,
    cut() {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      cut = false;
    },
  };
}

/** A server of the process `entry` names, whose PostgreSQL is reached through a relay that the test can cut, with `db` on the database itself. */
async function serverBehindRelay(entry: (typeof GATEWAY_PROCESSES)[number], maxAgeMs: number) {
  const serverUrl = POSTGRES_SERVER_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
  const database = await createPostgresDatabase(serverUrl);
  cleanups.push(() => database.drop());
  const relay = await postgresRelay(serverUrl);
  const relayed = new URL(database.url);
  relayed.host = `127.0.0.1:${relay.port}`;
  const server = await startServer({
    database: { url: relayed.toString(), drop: async () => undefined },
    env: { ...entry.env, GATEWAY_CACHE_MAX_AGE_MS: String(maxAgeMs) },
    nodeArgs: entry.nodeArgs,
  });
  cleanups.push(() => server.stop());
  const db = openDb({ ...server, databaseUrl: database.url });
  cleanups.push(() => db.$disconnect());
  return { server, db, relay };
}

/** What every call past the bound gets while the database does not answer. */
async function expectNotReady(response: Response, server: TestServer, requestId?: string): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(await response.json()).toMatchObject({
    type: `${server.url}/problems/not-ready`,
    status: 503,
    detail: "This instance cannot serve requests: database does not answer.",
    ...(requestId ? { requestId } : {}),
    down: ["database"],
  });
}

describe.each(GATEWAY_PROCESSES)("a call on $name while its database does not answer", (entry) => {
  it("is refused 503 not-ready past the bound, not answered from the last configuration, and served again once the database answers", {
    timeout: 120_000,
  }, async () => {
    const { server, db, relay } = await serverBehindRelay(entry, MAX_AGE_MS);
    await registerProxyApi(db, { slug: "steady", upstream: await upstream("steady"), isPublic: true });
    await served(server, "steady/orders");

    relay.cut();
    await quietSpell();
    await expectNotReady(await call(server, "steady/orders", { "x-request-id": "database-away-1" }), server, "database-away-1");

    relay.restore();
    await expect.poll(async () => (await call(server, "steady/orders")).status, { timeout: 10_000, interval: 200 }).toBe(200);
  });
});

/**
 * Long enough that the directory, the signing keys and a client's state, read just before the
 * database goes away, stay within it for the calls that follow, so that what those calls
 * read first is the revocation list or an unseen client's state.
 */
const LONG_MAX_AGE_MS = 10_000;

const count = (text: string, part: string) => text.split(part).length - 1;

describe.each(GATEWAY_PROCESSES)("a call on $name that reads credentials or revocations while its database does not answer", (entry) => {
  it("is refused 503 not-ready, the outage logged once per copy, and served again once the database answers", { timeout: 120_000 }, async () => {
    const { server, db, relay } = await serverBehindRelay(entry, LONG_MAX_AGE_MS);
    await registerProxyApi(db, { slug: "guarded", upstream: await upstream("guarded") });
    await registerProxyApi(db, { slug: "open", upstream: await upstream("open"), isPublic: true });
    const [known, unseen] = [await newCredential(db, ENV), await newCredential(db, ENV)];
    await served(server, "open/orders");
    const token = await accessToken(server, ENV, known);
    expect((await fetch(`${server.url}/gw/${ENV}/.well-known/jwks.json`)).status).toBe(200);

    relay.cut();
    const bearer = { authorization: `Bearer ${token}` };
    const protectedCalls = await Promise.all([
      call(server, "guarded/orders", { ...bearer, "x-request-id": "revocations-away-1" }),
      call(server, "guarded/orders", bearer),
    ]);
    await expectNotReady(protectedCalls[0]!, server, "revocations-away-1");
    await expectNotReady(protectedCalls[1]!, server);
    const tokenCall = () =>
      tokenRequest(server, ENV, { headers: { authorization: basic(unseen.clientId, unseen.clientSecret) }, body: "grant_type=client_credentials" });
    const tokenCalls = await Promise.all([tokenCall(), tokenCall()]);
    for (const refused of tokenCalls) await expectNotReady(refused, server);
    const revocation = await fetch(`${server.url}/gw/${ENV}/oauth2/revoke`, {
      method: "POST",
      headers: { authorization: basic(known.clientId, known.clientSecret), "content-type": "application/x-www-form-urlencoded" },
      body: `token=${token}`,
    });
    await expectNotReady(revocation, server);
    const output = await server.settledOutput();
    expect(count(output, "revoked tokens: the database does not answer")).toBe(1);
    expect(count(output, "credential states: the database does not answer")).toBe(1);

    relay.restore();
    await expect.poll(async () => (await call(server, "guarded/orders", bearer)).status, { timeout: 10_000, interval: 200 }).toBe(200);
    expect((await tokenCall()).status).toBe(200);
  });
});
