import "server-only";
import { config } from "../config";
import type { FailureCounter } from "./rate-limit";
import { createMemoryFailureCounter } from "./rate-limit-memory";
import { connectRedis, createRedisFailureCounter } from "./rate-limit-redis";
import { log } from "../log";

const globalForThrottles = globalThis as unknown as {
  gatehouseThrottles?: Map<string, FailureCounter>;
  gatehouseThrottleRedis?: ReturnType<typeof connectRedis>;
};

/**
 * One counter per name per process, shared across Next's module instances,
 * and across every instance through Redis when `REDIS_URL` is set: the same
 * fixed windows the token endpoint counts its failures in.
 */
export function sharedThrottle(name: string, windowSeconds: number): FailureCounter {
  const throttles = (globalForThrottles.gatehouseThrottles ??= new Map());
  let throttle = throttles.get(name);
  if (!throttle) {
    const { redisUrl, redisKeyPrefix } = config();
    const memory = createMemoryFailureCounter(windowSeconds);
    throttle = redisUrl
      ? createRedisFailureCounter(
          (globalForThrottles.gatehouseThrottleRedis ??= connectRedis(redisUrl, `${redisKeyPrefix}throttles`, log)),
          `${redisKeyPrefix}${name}:`,
          windowSeconds,
          memory,
        )
      : memory;
    throttles.set(name, throttle);
  }
  return throttle;
}

/** Seconds until the first of `checks` that is at its limit lets the key through again; 0 when none is. */
export async function retryAfter(checks: { throttle: FailureCounter; key: string; limit: number }[]): Promise<number> {
  const windows = await Promise.all(checks.map(async ({ throttle, key, limit }) => ({ limit, window: await throttle.current(key) })));
  const over = windows.filter(({ limit, window }) => window.count >= limit).map(({ window }) => Math.max(1, window.resetSeconds));
  return over.length === 0 ? 0 : Math.max(...over);
}

/**
 * The client's address: the one X-Forwarded-For hop that the server in front
 * of Next writes, after applying TRUSTED_PROXIES (see server/portal.ts).
 */
export function clientAddress(headers: Headers | Record<string, string | string[] | undefined>): string {
  const read = (name: string) => (headers instanceof Headers ? headers.get(name) : [headers[name]].flat()[0]);
  return read("x-forwarded-for")?.split(",").at(-1)?.trim() || "unknown";
}
