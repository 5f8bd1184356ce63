import type { Redis } from "ioredis";
import type { Logger } from "pino";

export type QuotaPeriod = "hour" | "day" | "month";

/** A plan's allowance: `requests` per calendar period in UTC. */
export type QuotaPolicy = { requests: number; period: QuotaPeriod };

/** One calendar period in UTC: from its start, inclusive, to the next one's. */
export type QuotaWindow = { start: Date; end: Date };

/** The period of `policy` that `now` falls in: the hour, the day, or the month from the 1st at 00:00 UTC. */
export function quotaWindow(period: QuotaPeriod, now: Date): QuotaWindow {
  const [year, month, day, hour] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours()];
  if (period === "hour") return { start: new Date(Date.UTC(year, month, day, hour)), end: new Date(Date.UTC(year, month, day, hour + 1)) };
  if (period === "day") return { start: new Date(Date.UTC(year, month, day)), end: new Date(Date.UTC(year, month, day + 1)) };
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

export type QuotaDecision = {
  allowed: boolean;
  /** calls counted in the period, this one included when allowed */
  used: number;
  window: QuotaWindow;
};

/**
 * Counts a subscription's calls per period, exactly across instances: a call is counted only
 * while fewer than the quota were, in one atomic step.
 */
export type QuotaCounter = {
  take(subscriptionId: string, policy: QuotaPolicy, now: Date): Promise<QuotaDecision>;
};

/** The database's atomic step (`DataPlaneStore.takeQuota`): the count after the call, or undefined when the quota was used up. */
export type QuotaTake = (subscriptionId: string, periodStart: Date, limit: number) => Promise<number | undefined>;

/** Counts in the database: what survives a restart and is shared by every instance without Redis. */
export function createDatabaseQuotaCounter(take: QuotaTake): QuotaCounter {
  return {
    async take(subscriptionId, policy, now) {
      const window = quotaWindow(policy.period, now);
      const used = await take(subscriptionId, window.start, policy.requests);
      return used === undefined ? { allowed: false, used: policy.requests, window } : { allowed: true, used, window };
    },
  };
}

// Count only below the quota, in one step on Redis; the key outlives its period by a day so Usage can show the period just ended.
const TAKE_QUOTA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return { 0, used } end
used = redis.call('INCR', KEYS[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return { 1, used }
`;

const KEPT_AFTER_PERIOD_MS = 24 * 60 * 60 * 1000;

/** The Redis key of a subscription's count in the period starting at `start`. */
export function quotaKey(keyPrefix: string, subscriptionId: string, start: Date): string {
  return `${keyPrefix}quota:${subscriptionId}:${start.getTime()}`;
}

type QuotaRedis = Redis & { takeQuota(key: string, limit: number, expiresAt: number): Promise<[number, number]> };

/**
 * Counts in Redis, shared by every instance. When Redis does not answer, the call is counted in
 * `fallback` (the database) rather than refused; Usage adds the two.
 */
export function createRedisQuotaCounter(redis: Redis, keyPrefix: string, fallback: QuotaCounter, log: Pick<Logger, "warn">): QuotaCounter {
  redis.defineCommand("takeQuota", { numberOfKeys: 1, lua: TAKE_QUOTA });
  const scripted = redis as QuotaRedis;
  return {
    async take(subscriptionId, policy, now) {
      const window = quotaWindow(policy.period, now);
      try {
        const [allowed, used] = await scripted.takeQuota(
          quotaKey(keyPrefix, subscriptionId, window.start),
          policy.requests,
          window.end.getTime() + KEPT_AFTER_PERIOD_MS,
        );
        return { allowed: allowed === 1, used: Number(used), window };
      } catch (error) {
        log.warn({ err: (error as Error).message }, "quota counted in the database: Redis did not answer");
        return fallback.take(subscriptionId, policy, now);
      }
    },
  };
}

/** Seconds from `now` to `end`, at least 1. */
export function secondsUntil(end: Date, now: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}

/**
 * The quota as IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers), to add beside the
 * rate limit's: `"quota";q=1000;w=2592000` (the period's length) and what is left until it ends.
 */
export function quotaFields(decision: QuotaDecision, policy: QuotaPolicy, now: Date): { policy: string; limit: string } {
  const windowSeconds = Math.round((decision.window.end.getTime() - decision.window.start.getTime()) / 1000);
  const remaining = Math.max(0, policy.requests - decision.used);
  return {
    policy: `"quota";q=${policy.requests};w=${windowSeconds}`,
    limit: `"quota";r=${remaining};t=${secondsUntil(decision.window.end, now)}`,
  };
}
