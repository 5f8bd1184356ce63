// Reads of one notification are cached by each instance (docs/decisions/003);
// these tests pin what a client must never notice: a change is visible at once,
// on the instance that made it and, through Redis, on the others.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { createTestDatabase } from "../support/databases";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, newCredential, openDb } from "./gateway-support";

const ENV = "platform-dev";
/** Well under the cache's 5 s time to live, so only an eviction can explain a fresh read. */
const ANNOUNCEMENT_WAIT_MS = 1_000;

const cleanups: (() => Promise<unknown>)[] = [];
let first: TestServer;
let second: TestServer;
let db: Db;

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

beforeAll(async () => {
  const { prefix, cleanup } = isolatedRedisPrefix();
  cleanups.push(cleanup);
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  // Two instances of one deployment: one public URL, so one issuer.
  const port = await freePort();
  const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix, PUBLIC_URL: `http://127.0.0.1:${port}` };
  first = await startServer({ database, env, port });
  cleanups.push(() => first.stop());
  second = await startServer({ database, env });
  cleanups.push(() => second.stop());
  db = openDb(first);
  cleanups.push(() => db.$disconnect());
});

type Caller = { token: string; clientId: string; environmentId: string };

async function caller(): Promise<Caller> {
  const client = await newCredential(db, ENV);
  const environment = await db.environment.findUniqueOrThrow({ where: { slug: ENV } });
  return { token: await accessToken(first, ENV, client), clientId: client.clientId, environmentId: environment.id };
}

async function notify(who: Caller): Promise<string> {
  const [id] = await createNotifications({ db, environmentId: who.environmentId, recipients: { clientIds: [who.clientId] }, title: "Cached" });
  return id!;
}

function read(server: TestServer, who: Caller, id: string): Promise<Response> {
  return fetch(`${server.url}/gw/${ENV}/notifications/v1/notifications/${id}`, { headers: { authorization: `Bearer ${who.token}` } });
}

function markRead(server: TestServer, who: Caller, id: string): Promise<Response> {
  return fetch(`${server.url}/gw/${ENV}/notifications/v1/notifications/${id}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${who.token}`, "content-type": "application/json" },
    body: JSON.stringify({ status: "read" }),
  });
}

async function statusAndEtag(response: Response) {
  expect(response.status).toBe(200);
  return { status: ((await response.json()) as { status: string }).status, etag: response.headers.get("etag") };
}

describe("cached notification reads", () => {
  it("show a change at once on the instance that made it", async () => {
    const alice = await caller();
    const id = await notify(alice);
    expect(await statusAndEtag(await read(first, alice, id))).toEqual({ status: "unread", etag: '"v1"' });
    expect((await markRead(first, alice, id)).status).toBe(200);
    expect(await statusAndEtag(await read(first, alice, id))).toEqual({ status: "read", etag: '"v2"' });
  });

  it("show a change made on another instance once Redis has carried the announcement", async () => {
    const alice = await caller();
    const id = await notify(alice);
    expect(await statusAndEtag(await read(first, alice, id))).toEqual({ status: "unread", etag: '"v1"' });
    expect((await markRead(second, alice, id)).status).toBe(200);
    const deadline = Date.now() + ANNOUNCEMENT_WAIT_MS;
    let seen = await statusAndEtag(await read(first, alice, id));
    while (seen.etag !== '"v2"' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await statusAndEtag(await read(first, alice, id));
    }
    expect(seen).toEqual({ status: "read", etag: '"v2"' });
  });

  it("answer 304 to the cached version's ETag and 200 once it has changed", async () => {
    const alice = await caller();
    const id = await notify(alice);
    await read(first, alice, id);
    const unchanged = await fetch(`${first.url}/gw/${ENV}/notifications/v1/notifications/${id}`, { headers: { authorization: `Bearer ${alice.token}`, "if-none-match": '"v1"' } });
    expect(unchanged.status).toBe(304);
    await markRead(first, alice, id);
    const changed = await fetch(`${first.url}/gw/${ENV}/notifications/v1/notifications/${id}`, { headers: { authorization: `Bearer ${alice.token}`, "if-none-match": '"v1"' } });
    expect(changed.status).toBe(200);
  });

  it("never serve one client's cached notification to another", async () => {
    const alice = await caller();
    const bob = await caller();
    const id = await notify(alice);
    expect((await read(first, alice, id)).status).toBe(200);
    const response = await read(first, bob, id);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("Cached");
  });
});
