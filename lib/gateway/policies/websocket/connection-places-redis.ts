import "server-only";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { ConnectionPlaces } from "./connection-places";

/**
 * A holder's places live in two keys: `held`, each process's count, and `alive`, each process's
 * deadline on Redis's clock. A process renews its deadline while it holds places; one that died
 * without giving them back is dropped once its deadline passes, at the next take.
 */
const TAKE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[3])
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
for _, process in ipairs(gone) do redis.call('HDEL', KEYS[2], process) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local total = 0
for _, count in ipairs(redis.call('HVALS', KEYS[2])) do total = total + tonumber(count) end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
`;

const RELEASE = `
if redis.call('HINCRBY', KEYS[2], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 1
`;

const RENEW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
`;

type PlacesRedis = Redis & {
  takeConnectionPlace(alive: string, held: string, processId: string, max: number, ttlMs: number): Promise<number>;
  releaseConnectionPlace(alive: string, held: string, processId: string): Promise<number>;
  renewConnectionPlaces(alive: string, held: string, processId: string, ttlMs: number): Promise<number>;
};

/** How long a process that stopped renewing keeps its places: three renewals missed. */
const PLACES_TTL_MS = 15_000;
const RENEW_EVERY_MS = PLACES_TTL_MS / 3;

/**
 * Places shared by every gateway process on one Redis, under `prefix`. When Redis does not
 * answer a take, this process's own places (`fallback`) decide, as the rate limiter does.
 */
export function createRedisConnectionPlaces(input: { redis: Redis; prefix: string; fallback: ConnectionPlaces; log: Pick<Logger, "warn"> }): ConnectionPlaces {
  const { prefix, fallback, log } = input;
  const redis = input.redis as PlacesRedis;
  redis.defineCommand("takeConnectionPlace", { numberOfKeys: 2, lua: TAKE });
  redis.defineCommand("releaseConnectionPlace", { numberOfKeys: 2, lua: RELEASE });
  redis.defineCommand("renewConnectionPlaces", { numberOfKeys: 2, lua: RENEW });
  const processId = randomUUID();
  const keysOf = (key: string) => [`${prefix}ws:${key}:alive`, `${prefix}ws:${key}:held`] as const;
  const heldHere = new Map<string, number>();
  const warn = (error: unknown, message: string) => log.warn({ err: (error as Error).message }, message);

  const renewal = setInterval(() => {
    for (const key of heldHere.keys())
      redis
        .renewConnectionPlaces(...keysOf(key), processId, PLACES_TTL_MS)
        .catch((error: unknown) => warn(error, "could not renew WebSocket connection places in Redis"));
  }, RENEW_EVERY_MS);
  renewal.unref();

  return {
    async take(key, max) {
      let taken: number;
      try {
        taken = await redis.takeConnectionPlace(...keysOf(key), processId, max, PLACES_TTL_MS);
      } catch (error) {
        warn(error, "redis unavailable for WebSocket connection places; counting this process's own");
        return fallback.take(key, max);
      }
      if (taken !== 1) return undefined;
      heldHere.set(key, (heldHere.get(key) ?? 0) + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const left = (heldHere.get(key) ?? 1) - 1;
        if (left === 0) heldHere.delete(key);
        else heldHere.set(key, left);
        // A release lost to Redis is made good once this process holds none of the key's places: its deadline then passes.
        redis
          .releaseConnectionPlace(...keysOf(key), processId)
          .catch((error: unknown) => warn(error, "could not give back a WebSocket connection place in Redis"));
      };
    },
    async close() {
      clearInterval(renewal);
      const keys = [...heldHere.keys()];
      heldHere.clear();
      await Promise.all([
        fallback.close(),
        ...keys.map((key) => {
          const [alive, held] = keysOf(key);
          return redis
            .multi()
            .hdel(held, processId)
            .zrem(alive, processId)
            .exec()
            .catch((error: unknown) => warn(error, "could not give back WebSocket connection places in Redis"));
        }),
      ]);
    },
  };
}
