import "server-only";
import type { Logger } from "pino";
import { config } from "../config";
import { log } from "../log";
import type { FailureCounter, RateLimiter } from "./rate-limit";
import { createMemoryFailureCounter, createMemoryRateLimiter } from "./rate-limit-memory";
import { createLeasedRateLimiter } from "./rate-limit-lease";
import { connectRedis, createRedisFailureCounter, createRedisRateLimiter, createRedisSeenOnce, type ScriptedRedis } from "./rate-limit-redis";
import { createRedisQuotaCounter, type QuotaCounter } from "./quota";
import { createMemorySeenOnce, type SeenOnce } from "./seen-once";

/**
 * The limiters of one holder. Each is built once and then kept: its memory is what
 * limits calls when there is no Redis, and what Redis falls back to when it does not answer.
 */
export type Limits = {
  rateLimiter(): RateLimiter;
  /** `scope` keeps one holder's counters of different windows apart (a throttle's name) */
  failureCounter(windowSeconds: number, scope?: string): FailureCounter;
  seenOnce(): SeenOnce;
  /** a subscription's quota, exact: in Redis when shared, else in `database`; never in memory, as a quota outlives the process */
  quotaCounter(database: QuotaCounter): QuotaCounter;
};

/**
 * In this process's memory, or, with `redisUrl`, shared by every instance on that Redis
 * under `keyPrefix`, over one connection named `connectionName` in Redis's `CLIENT LIST`,
 * opened when the first limiter is built. With `leased`, the shared rate limiter leases
 * batches of tokens (decision 062): for the gateway's calls, not for limits that must stay
 * exact on every call.
 */
export function createLimits(input: { redisUrl: string | undefined; keyPrefix: string; connectionName: string; leased?: boolean; log: Logger }): Limits {
  const { redisUrl, keyPrefix, connectionName } = input;
  const sharedRateLimiter = input.leased ? createLeasedRateLimiter : createRedisRateLimiter;
  let redis: ScriptedRedis | undefined;
  const sharedOr = <T>(memory: T, shared: (redis: ScriptedRedis, fallback: T) => T): T =>
    redisUrl ? shared((redis ??= connectRedis(redisUrl, connectionName, input.log)), memory) : memory;
  let rateLimiter: RateLimiter | undefined;
  let seenOnce: SeenOnce | undefined;
  let quotaCounter: QuotaCounter | undefined;
  const failureCounters = new Map<string, FailureCounter>();

  return {
    rateLimiter: () =>
      (rateLimiter ??= sharedOr<RateLimiter>(createMemoryRateLimiter(), (redis, memory) => sharedRateLimiter(redis, keyPrefix, memory, input.log))),
    failureCounter(windowSeconds, scope = "") {
      let counter = failureCounters.get(scope);
      if (!counter) {
        const prefix = scope ? `${keyPrefix}${scope}:` : keyPrefix;
        counter = sharedOr(createMemoryFailureCounter(windowSeconds), (redis, memory) => createRedisFailureCounter(redis, prefix, windowSeconds, memory));
        failureCounters.set(scope, counter);
      }
      return counter;
    },
    quotaCounter: (database) => (quotaCounter ??= sharedOr(database, (redis, fallback) => createRedisQuotaCounter(redis, keyPrefix, fallback, input.log))),
    seenOnce: () => (seenOnce ??= sharedOr(createMemorySeenOnce(), (redis, memory) => createRedisSeenOnce(redis, keyPrefix, memory, input.log))),
  };
}

/** Who holds limiters in a process; each has its own connection, so operators can tell them apart. Only the gateway's calls lease. */
export type LimitsHolder = "gateway" | "management-api" | "throttles";

const globalForLimits = globalThis as unknown as { gatehouseLimits?: Map<LimitsHolder, Limits> };

/**
 * The holder's limits in this process, shared across Next's module instances, from
 * `REDIS_URL` and `REDIS_KEY_PREFIX`.
 */
export function processLimits(holder: LimitsHolder): Limits {
  const all = (globalForLimits.gatehouseLimits ??= new Map());
  let limits = all.get(holder);
  if (!limits) {
    const { redisUrl, redisKeyPrefix } = config();
    limits = createLimits({ redisUrl, keyPrefix: redisKeyPrefix, connectionName: `${redisKeyPrefix}${holder}`, leased: holder === "gateway", log });
    all.set(holder, limits);
  }
  return limits;
}
