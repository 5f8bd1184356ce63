import { afterAll, describe, expect, it } from "vitest";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { freePort, startServer, type TestServer } from "../support/server";

const servers: TestServer[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const cleanup of cleanups) await cleanup();
});

describe("GET /api/ready", () => {
  it("answers 200 when the database and Redis answer, and 503 naming Redis when it does not, while /api/health stays 200", { timeout: 180_000 }, async () => {
    const { prefix, cleanup } = isolatedRedisPrefix();
    cleanups.push(cleanup);
    const withRedis = await startServer({ env: { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } });
    servers.push(withRedis);
    // Nothing listens on a free port: this instance's Redis is down.
    const redisDown = await startServer({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_KEY_PREFIX: prefix } });
    servers.push(redisDown);

    const ready = await fetch(`${withRedis.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "up", redis: "up" } });

    const notReady = await fetch(`${redisDown.url}/api/ready`, { headers: { "x-request-id": "ready-check-1" } });
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get("content-type")).toBe("application/problem+json");
    expect(await notReady.json()).toEqual({
      type: `${redisDown.url}/problems/not-ready`,
      title: "Not ready",
      status: 503,
      detail: "This instance cannot serve requests: redis does not answer.",
      instance: "/api/ready",
      requestId: "ready-check-1",
      down: ["redis"],
    });
    expect((await fetch(`${redisDown.url}/api/health`)).status).toBe(200);
  });
});
