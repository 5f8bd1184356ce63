/** Remembers keys until they expire, so a one-time value (an assertion's `jti`) is accepted once. */
export type SeenOnce = {
  /** true the first time `key` is offered before `expiresAt`, false every later time */
  first(key: string, expiresAt: Date): Promise<boolean>;
};

const MAX_KEYS = 100_000;

/**
 * One process's memory; when it is full, the expired keys at its oldest end are dropped, then the
 * oldest. Only that end is looked at: a full scan on every insert would make each call of a busy
 * DPoP client (one jti per call) cost 100,000 comparisons.
 */
export function createMemorySeenOnce(): SeenOnce {
  const seen = new Map<string, number>();
  return {
    async first(key, expiresAt) {
      const now = Date.now();
      const until = seen.get(key);
      if (until !== undefined && until > now) return false;
      if (seen.size >= MAX_KEYS) {
        for (const [stale, end] of seen) {
          if (end > now) break;
          seen.delete(stale);
        }
      }
      if (seen.size >= MAX_KEYS) seen.delete(seen.keys().next().value!);
      seen.set(key, expiresAt.getTime());
      return true;
    },
  };
}
