// Read-your-writes across instances (DESIGN §6): once one instance answers a PUT
// with 200, another instance on the same database answers the next GET with the
// new version, and 304 only for the new ETag, and lists it with the new status
// (a page it kept is not served once its rows changed) — also after its Redis
// connections were killed. Two built servers on one PostgreSQL database and one Redis.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { createPostgresDatabase, POSTGRES_SERVER_URL } from "../../lib/database/test-databases";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, newCredential, openDb } from "./gateway-support";

const ENV = "platform-dev";
const TRIALS = 40;
const STATUSES = ["read", "unread", "archived"] as const;

const cleanups: (() => Promise<unknown>)[] = [];
const redisClient = isolatedRedisPrefix();
const connectionName = `${redisClient.prefix}gateway`;
let first: TestServer;
let second: TestServer;
let db: Db;
let firstInstanceConnections: Set<string>;

/** Redis client ids of the gateway connections of this test's instances, from `CLIENT LIST`. */
async function gatewayConnectionIds(): Promise<string[]> {
  const list = (await redisClient.redis.client("LIST")) as string;
  return list
    .split("\n")
    .map((line) => Object.fromEntries(line.split(" ").map((field) => field.split("=", 2) as [string, string])))
    .filter((client) => client.name === connectionName)
    .map((client) => client.id!);
}

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

beforeAll(async () => {
  cleanups.push(() => redisClient.cleanup());
  const database = await createPostgresDatabase(POSTGRES_SERVER_URL ?? "postgresql://root@127.0.0.1:5432/postgres");
  cleanups.push(() => database.drop());
  // Two instances of one deployment: one public URL, so one issuer.
  const port = await freePort();
  const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redisClient.prefix, PUBLIC_URL: `http://127.0.0.1:${port}` };
  first = await startServer({ database, env, port });
  cleanups.push(() => first.stop());
  db = openDb(first);
  cleanups.push(() => db.$disconnect());
  // Before any gateway call, so no instance has the default budget cached: the trials measure reads, not refusals.
  await db.environment.update({ where: { slug: ENV }, data: { rateLimitBurst: 1_000_000, rateLimitPerSecond: 1_000_000 } });
  firstInstanceConnections = new Set(await gatewayConnectionIds());
  second = await startServer({ database, env });
  cleanups.push(() => second.stop());
}, 180_000);

type Caller = { token: string; clientId: string; environmentId: string };

async function caller(): Promise<Caller> {
  const client = await newCredential(db, ENV);
  const environment = await db.environment.findUniqueOrThrow({ where: { slug: ENV } });
  return { token: await accessToken(first, ENV, client), clientId: client.clientId, environmentId: environment.id };
}

function notificationUrl(server: TestServer, id: string): string {
  return `${server.url}/gw/${ENV}/notifications/v1/notifications/${id}`;
}

async function read(server: TestServer, who: Caller, id: string, ifNoneMatch?: string) {
  const response = await fetch(notificationUrl(server, id), {
    headers: { authorization: `Bearer ${who.token}`, ...(ifNoneMatch ? { "if-none-match": ifNoneMatch } : {}) },
  });
  const body = response.status === 200 ? ((await response.json()) as { status: string }) : undefined;
  return { status: response.status, etag: response.headers.get("etag"), state: body?.status };
}

/** The notification's status on the first page of the list, as `server` answers it. */
async function listed(server: TestServer, who: Caller, id: string): Promise<string | undefined> {
  const response = await fetch(`${server.url}/gw/${ENV}/notifications/v1/notifications`, { headers: { authorization: `Bearer ${who.token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { id: string; status: string }[] }).items.find((item) => item.id === id)?.status;
}

async function update(server: TestServer, who: Caller, id: string, status: string) {
  const response = await fetch(notificationUrl(server, id), {
    method: "PUT",
    headers: { authorization: `Bearer ${who.token}`, "content-type": "application/json" },
    body: JSON.stringify({ status }),
  });
  expect(response.status).toBe(200);
  return { etag: response.headers.get("etag")!, state: ((await response.json()) as { status: string }).status };
}

/** Each trial reads and lists through B (so B has seen the old version), writes through A, and reads and lists through B at once. */
async function trials(who: Caller, id: string): Promise<void> {
  for (let trial = 0; trial < TRIALS; trial++) {
    const before = await read(second, who, id);
    expect(before.status).toBe(200);
    expect(await listed(second, who, id)).toBe(before.state);
    const next = STATUSES.filter((status) => status !== before.state)[trial % 2]!;
    const written = await update(first, who, id, next);
    expect(written.etag).not.toBe(before.etag);
    expect(await read(second, who, id)).toEqual({ status: 200, etag: written.etag, state: next });
    expect(await listed(second, who, id)).toBe(next);
    expect((await read(second, who, id, before.etag!)).status).toBe(200);
    expect((await read(second, who, id, written.etag)).status).toBe(304);
  }
}

describe("read-your-writes across instances", () => {
  it("a GET through one instance right after a PUT through another sees the new version", async () => {
    const alice = await caller();
    const [id] = await createNotifications({ db, environmentId: alice.environmentId, recipients: { clientIds: [alice.clientId] }, title: "Shared" });
    await trials(alice, id!);
  }, 60_000);

  it("still holds after the second instance's Redis connections are killed", async () => {
    const alice = await caller();
    const [id] = await createNotifications({ db, environmentId: alice.environmentId, recipients: { clientIds: [alice.clientId] }, title: "Shared" });
    const secondInstanceConnections = (await gatewayConnectionIds()).filter((connection) => !firstInstanceConnections.has(connection));
    expect(secondInstanceConnections.length).toBeGreaterThan(0);
    for (const connection of secondInstanceConnections) await redisClient.redis.client("KILL", "ID", connection);
    await trials(alice, id!);
  }, 60_000);
});
