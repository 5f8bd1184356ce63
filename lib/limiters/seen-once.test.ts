import { randomUUID } from "node:crypto";
import pino from "pino";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { connectRedis, createRedisSeenOnce } from "./rate-limit-redis";
import { createMemorySeenOnce, type SeenOnce } from "./seen-once";

afterEach(() => {
  vi.useRealTimers();
});

async function acceptsEachKeyOnceUntilItExpires(seen: SeenOnce, key: string) {
  const inAMinute = new Date(Date.now() + 60_000);
  expect(await seen.first(key, inAMinute)).toBe(true);
  expect(await seen.first(key, inAMinute)).toBe(false);
  expect(await seen.first(`${key}-other`, inAMinute)).toBe(true);
}

describe("one-time keys", () => {
  it("in memory: a key is accepted once, and again only after it expired", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const seen = createMemorySeenOnce();
    await acceptsEachKeyOnceUntilItExpires(seen, "jti-1");
    vi.advanceTimersByTime(60_001);
    expect(await seen.first("jti-1", new Date(Date.now() + 60_000))).toBe(true);
  });

  describe("in Redis", () => {
    const redis = connectRedis("redis://127.0.0.1:6379", "gatehouse-test-seen-once", pino({ level: "silent" }));
    const prefix = `gatehouse-test-${randomUUID()}:`;
    afterAll(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it("is shared by every instance on one Redis, with the key's own expiry", async () => {
      const log = pino({ level: "silent" });
      const one = createRedisSeenOnce(redis, prefix, createMemorySeenOnce(), log);
      const other = createRedisSeenOnce(redis, prefix, createMemorySeenOnce(), log);
      await acceptsEachKeyOnceUntilItExpires(one, "jti-2");
      expect(await other.first("jti-2", new Date(Date.now() + 60_000))).toBe(false);
      const ttl = await redis.pttl(`${prefix}once:jti-2`);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });
  });
});
