import type { FailureCounter, RateLimitDecision } from "./rate-limit";
import { decide } from "./rate-limit";
import type { RateLimitPolicy } from "./rate-limit-policy";

const MAX_KEYS = 100_000;

/**
 * One process's buckets, a `RateLimiter` that decides at once; when the map grows too large,
 * buckets that have refilled are dropped.
 */
export function createMemoryRateLimiter(): { take(key: string, policy: RateLimitPolicy): RateLimitDecision } {
  const buckets = new Map<string, { tokens: number; updatedAt: number; burst: number }>();

  function sweep(now: number, perSecond: number): void {
    for (const [key, bucket] of buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * perSecond >= bucket.burst) buckets.delete(key);
    }
  }

  return {
    take(key, policy) {
      const now = Date.now();
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= MAX_KEYS) sweep(now, policy.perSecond);
        bucket = { tokens: policy.burst, updatedAt: now, burst: policy.burst };
        buckets.set(key, bucket);
      }
      bucket.tokens = Math.min(policy.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * policy.perSecond);
      bucket.updatedAt = now;
      bucket.burst = policy.burst;
      const allowed = bucket.tokens >= 1;
      if (allowed) bucket.tokens -= 1;
      return decide(bucket.tokens, allowed, policy);
    },
  };
}

export function createMemoryFailureCounter(windowSeconds: number): FailureCounter {
  const windows = new Map<string, { count: number; endsAt: number }>();

  function live(key: string, now: number) {
    const window = windows.get(key);
    if (window && window.endsAt > now) return window;
    if (window) windows.delete(key);
    return undefined;
  }

  return {
    async current(key) {
      const now = Date.now();
      const window = live(key, now);
      return window ? { count: window.count, resetSeconds: Math.ceil((window.endsAt - now) / 1000) } : { count: 0, resetSeconds: 0 };
    },
    async record(key) {
      const now = Date.now();
      const window = live(key, now);
      if (window) window.count += 1;
      else {
        if (windows.size >= MAX_KEYS) for (const [stale, entry] of windows) if (entry.endsAt <= now) windows.delete(stale);
        windows.set(key, { count: 1, endsAt: now + windowSeconds * 1000 });
      }
    },
    async clear(key) {
      windows.delete(key);
    },
  };
}
