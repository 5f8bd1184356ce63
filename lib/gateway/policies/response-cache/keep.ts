import type { CachedAnswer } from "./store";

/** The longest `ttlSeconds` a policy may set (responseCacheSchema), in milliseconds. */
const MAX_TTL_MS = 604_800 * 1000;

/**
 * How long an entry is kept: while fresh, and as long again past that when it has a validator,
 * so that a stale entry can be revalidated with a conditional request rather than fetched whole.
 */
export function keepMs(answer: CachedAnswer, now: number): number {
  const fresh = answer.expiresAt - now;
  return hasValidator(answer) ? 2 * fresh : fresh;
}

/** The longest any entry is kept: a fresh week and a stale one. */
export const MAX_KEEP_MS = 2 * MAX_TTL_MS;

export function hasValidator(answer: Pick<CachedAnswer, "headers">): boolean {
  return answer.headers.etag !== undefined || answer.headers["last-modified"] !== undefined;
}
