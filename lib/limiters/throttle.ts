import "server-only";
import type { FailureCounter } from "./rate-limit";
import { processLimits } from "./limits";

/**
 * One counter per name per process, and across every instance through Redis when
 * `REDIS_URL` is set: the same fixed windows the token endpoint counts its failures in.
 */
export function sharedThrottle(name: string, windowSeconds: number): FailureCounter {
  return processLimits("throttles").failureCounter(windowSeconds, name);
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
