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

  it("in memory, when full: drops the expired keys at the oldest end first, then the oldest key", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const seen = createMemorySeenOnce({ maxKeys: 3 });
    const inMs = (ms: number) => new Date(Date.now() + ms);
    expect(await seen.first("short", inMs(1_000))).toBe(true);
    expect(await seen.first("long-1", inMs(60_000))).toBe(true);
    expect(await seen.first("long-2", inMs(60_000))).toBe(true);
    vi.advanceTimersByTime(1_001);
    expect(await seen.first("long-3", inMs(60_000))).toBe(true);
    expect(await seen.first("long-1", inMs(60_000))).toBe(false);
    expect(await seen.first("long-4", inMs(60_000))).toBe(true);
    expect(await seen.first("long-2", inMs(60_000))).toBe(false);
    // Full of live keys, the oldest went: the bound docs/dpop.md states.
    expect(await seen.first("long-1", inMs(60_000))).toBe(true);
    const many = createMemorySeenOnce({ maxKeys: 10 });
    for (let i = 0; i < 100; i++) expect(await many.first(`key-${i}`, inMs(60_000))).toBe(true);
    for (let i = 90; i < 100; i++) expect(await many.first(`key-${i}`, inMs(60_000))).toBe(false);
    expect(await many.first("key-89", inMs(60_000))).toBe(true);
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
