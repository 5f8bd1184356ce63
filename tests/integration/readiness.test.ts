import { createConnection, createServer, type Server, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { GATEWAY_PROCESSES } from "./gateway-support";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { startServer, type TestServer } from "../support/server";

const servers: TestServer[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const cleanup of cleanups) await cleanup();
});

/** A TCP relay to the test Redis, so that one instance's Redis can go away while it runs. */
async function redisRelay(): Promise<{ url: string; cut(): Promise<void> }> {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const { port } = relay.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe.each(GATEWAY_PROCESSES)("GET /api/ready on $name", ({ env, nodeArgs }) => {
  it("answers 200 when the database and Redis answer, and 503 naming Redis once it goes away, while /api/health stays 200", { timeout: 180_000 }, async () => {
    const { prefix, cleanup } = isolatedRedisPrefix();
    cleanups.push(cleanup);
    const relay = await redisRelay();
    const server = await startServer({ env: { ...env, REDIS_URL: relay.url, REDIS_KEY_PREFIX: prefix }, nodeArgs });
    servers.push(server);

    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "up", redis: "up" } });

    await relay.cut();
    const notReady = await fetch(`${server.url}/api/ready`, { headers: { "x-request-id": "ready-check-1" } });
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get("content-type")).toBe("application/problem+json");
    expect(await notReady.json()).toEqual({
      type: `${server.url}/problems/not-ready`,
      title: "Not ready",
      status: 503,
      detail: "This instance cannot serve requests: redis does not answer.",
      instance: "/api/ready",
      requestId: "ready-check-1",
      down: ["redis"],
    });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
