import "server-only";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { FailureCounter, RateLimiter } from "./rate-limit";
import { decide } from "./rate-limit";
import type { SeenOnce } from "./seen-once";

// Refill and take in one atomic step, on Redis's clock, so every instance draws on one bucket.
const TAKE_TOKEN = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 't', 'u')
local tokens = tonumber(state[1]) or burst
local updated = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - updated) * rate / 1000)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'u', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return { allowed, tostring(tokens) }
`;

const RECORD_FAILURE = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;

export type ScriptedRedis = Redis & {
  takeToken(key: string, burst: number, perSecond: number): Promise<[number, string]>;
  recordFailure(key: string, windowMs: number): Promise<number>;
};

/** `name` labels the connection in Redis's `CLIENT LIST`, so operators can tell Gatehouse's connections apart. */
export function connectRedis(url: string, name: string, log: Logger): ScriptedRedis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 500, enableAutoPipelining: true, connectionName: name });
  redis.on("error", (error: Error) => log.warn({ err: error.message }, "redis error"));
  redis.defineCommand("takeToken", { numberOfKeys: 1, lua: TAKE_TOKEN });
  redis.defineCommand("recordFailure", { numberOfKeys: 1, lua: RECORD_FAILURE });
  return redis as ScriptedRedis;
}

/**
 * Buckets shared by every instance on one Redis. When Redis does not answer,
 * the instance falls back to its own buckets rather than refusing traffic.
 */
export function createRedisRateLimiter(redis: ScriptedRedis, prefix: string, fallback: RateLimiter, log: Logger): RateLimiter {
  return {
    async take(key, policy) {
      try {
        const [allowed, tokens] = await redis.takeToken(`${prefix}rl:${key}`, policy.burst, policy.perSecond);
        return decide(Number(tokens), allowed === 1, policy);
      } catch (error) {
        log.warn({ err: (error as Error).message }, "redis rate limit unavailable; using this instance's buckets");
        return fallback.take(key, policy);
      }
    },
  };
}

export function createRedisFailureCounter(redis: ScriptedRedis, prefix: string, windowSeconds: number, fallback: FailureCounter): FailureCounter {
  return {
    async current(key) {
      try {
        const [count, ttl] = await Promise.all([redis.get(`${prefix}fail:${key}`), redis.pttl(`${prefix}fail:${key}`)]);
        return { count: Number(count ?? 0), resetSeconds: ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
      } catch {
        return fallback.current(key);
      }
    },
    async record(key) {
      try {
        await redis.recordFailure(`${prefix}fail:${key}`, windowSeconds * 1000);
      } catch {
        await fallback.record(key);
      }
    },
    async clear(key) {
      await Promise.all([redis.del(`${prefix}fail:${key}`).catch(() => 0), fallback.clear(key)]);
    },
  };
}

/** One-time keys shared by every instance: `SET NX` with the key's own expiry. Without Redis, this instance's memory decides. */
export function createRedisSeenOnce(redis: ScriptedRedis, prefix: string, fallback: SeenOnce, log: Logger): SeenOnce {
  return {
    async first(key, expiresAt) {
      try {
        const ttlMs = Math.max(1000, expiresAt.getTime() - Date.now());
        return (await redis.set(`${prefix}once:${key}`, "1", "PX", ttlMs, "NX")) === "OK";
      } catch (error) {
        log.warn({ err: (error as Error).message }, "redis unavailable for one-time keys; using this instance's memory");
        return fallback.first(key, expiresAt);
      }
    },
  };
}
