import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createLimits } from "./limits";

const log = pino({ level: "silent" });
const policy = { burst: 1, perSecond: 1 };

describe("the limits of one holder", () => {
  it("in memory, without Redis: each limiter built once and kept, each scope's counter apart", async () => {
    const limits = createLimits({ redisUrl: undefined, keyPrefix: "unused:", connectionName: "unused", log });
    expect(limits.rateLimiter()).toBe(limits.rateLimiter());
    expect(limits.seenOnce()).toBe(limits.seenOnce());
    expect(limits.failureCounter(60, "sign-in")).toBe(limits.failureCounter(60, "sign-in"));
    expect((await limits.rateLimiter().take("client", policy)).allowed).toBe(true);
    expect((await limits.rateLimiter().take("client", policy)).allowed).toBe(false);
    await limits.failureCounter(60, "sign-in").record("203.0.113.9");
    expect(await limits.failureCounter(60, "sign-in").current("203.0.113.9")).toMatchObject({ count: 1 });
    expect(await limits.failureCounter(60, "contact").current("203.0.113.9")).toEqual({ count: 0, resetSeconds: 0 });
    expect(await limits.failureCounter(60).current("203.0.113.9")).toEqual({ count: 0, resetSeconds: 0 });
  });

  describe("through Redis", () => {
    const keyPrefix = `gatehouse-test-${randomUUID()}:`;
    const redis = new Redis("redis://127.0.0.1:6379");
    afterAll(async () => {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it("is shared by every instance on one Redis and prefix, over a connection named for its holder", async () => {
      const connectionName = `${keyPrefix}gateway`;
      const one = createLimits({ redisUrl: "redis://127.0.0.1:6379", keyPrefix, connectionName, log });
      const other = createLimits({ redisUrl: "redis://127.0.0.1:6379", keyPrefix, connectionName, log });
      expect((await one.rateLimiter().take("env:client", policy)).allowed).toBe(true);
      expect((await other.rateLimiter().take("env:client", policy)).allowed).toBe(false);
      await one.failureCounter(60, "sign-in").record("203.0.113.9");
      await other.failureCounter(60, "sign-in").record("203.0.113.9");
      expect(await redis.get(`${keyPrefix}sign-in:fail:203.0.113.9`)).toBe("2");
      expect(await one.seenOnce().first("jti-1", new Date(Date.now() + 60_000))).toBe(true);
      expect(await other.seenOnce().first("jti-1", new Date(Date.now() + 60_000))).toBe(false);
      expect(await redis.exists(`${keyPrefix}rl:env:client`, `${keyPrefix}once:jti-1`)).toBe(2);
      const names = String(await redis.client("LIST"))
        .split("\n")
        .map((line) => /\bname=(\S*)/.exec(line)?.[1]);
      expect(names.filter((name) => name === connectionName)).toHaveLength(2);
    });
  });
});
