import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, newCredential, openDb } from "./gateway-support";

const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Sets the environment's bucket before the gateway first reads its directory (it caches it for 5 s). */
async function limitEnvironment(db: Db, slug: string, burst: number, perSecond: number) {
  await db.environment.update({ where: { slug }, data: { rateLimitBurst: burst, rateLimitPerSecond: perSecond } });
}

/** Loads the server's caches for this token with a call that is answered before the rate-limit stage (404), so timed calls are fast. */
async function warmUp(server: TestServer, envSlug: string, token: string) {
  const response = await fetch(`${server.url}/gw/${envSlug}/notifications/warm-up`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(404);
}

function list(server: TestServer, envSlug: string, token: string) {
  return fetch(`${server.url}/gw/${envSlug}/notifications/v1/notifications`, { headers: { authorization: `Bearer ${token}` } });
}

describe("rate limits in memory", () => {
  it("allows a burst, then answers 429 with Retry-After and RateLimit headers", async () => {
    const server = await startServer();
    cleanups.push(() => server.stop());
    const db = openDb(server);
    cleanups.push(() => db.$disconnect());
    await limitEnvironment(db, "sso-prod", 3, 1);
    const client = await newCredential(db, "sso-prod");
    const token = await accessToken(server, "sso-prod", client);
    await warmUp(server, "sso-prod", token);
    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push(await list(server, "sso-prod", token));
    expect(allowed.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(allowed.map((response) => response.headers.get("ratelimit"))).toEqual(['"client";r=2;t=1', '"client";r=1;t=2', '"client";r=0;t=3']);
    const limited = await list(server, "sso-prod", token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.headers.get("ratelimit-policy")).toBe('"client";q=3;w=3');
    expect(limited.headers.get("ratelimit")).toBe('"client";r=0;t=1');
    const body = await limited.json();
    expect(body).toMatchObject({ type: `${server.url}/problems/rate-limited`, status: 429 });
    const other = await newCredential(db, "sso-prod");
    expect((await list(server, "sso-prod", await accessToken(server, "sso-prod", other))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await list(server, "sso-prod", token)).status).toBe(200);
  });
});

describe("rate limits shared through Redis", () => {
  it("makes two server instances draw on one budget", async () => {
    const { prefix, redis, cleanup } = isolatedRedisPrefix();
    cleanups.push(cleanup);
    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.drop());
    // Two instances of one deployment: one public URL, so one issuer.
    const port = await freePort();
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix, PUBLIC_URL: `http://127.0.0.1:${port}` };
    const first = await startServer({ database, env, port });
    cleanups.push(() => first.stop());
    const db = openDb(first);
    cleanups.push(() => db.$disconnect());
    await limitEnvironment(db, "platform-prod", 4, 1);
    const second = await startServer({ database, env });
    cleanups.push(() => second.stop());
    const client = await newCredential(db, "platform-prod");
    const token = await accessToken(first, "platform-prod", client);
    await warmUp(first, "platform-prod", token);
    await warmUp(second, "platform-prod", token);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await list(i % 2 === 0 ? first : second, "platform-prod", token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(await redis.keys(`${prefix}rl:*`)).toHaveLength(1);
  });
});
