/** Remembers keys until they expire, so a one-time value (an assertion's `jti`) is accepted once. */
export type SeenOnce = {
  /** true the first time `key` is offered before `expiresAt`, false every later time */
  first(key: string, expiresAt: Date): Promise<boolean>;
};

const MAX_KEYS = 100_000;

/**
 * One process's memory; when it is full, the expired keys at its oldest end are dropped, then the
 * oldest. The keys wait in a queue in the order they came, beside the map that answers lookups:
 * finding the oldest is then one step, where reading it off the map's own order would step over
 * every key the map deleted since it last grew, on every call of a busy DPoP client.
 */
export function createMemorySeenOnce({ maxKeys = MAX_KEYS }: { maxKeys?: number } = {}): SeenOnce {
  const seen = new Map<string, number>();
  let queue: string[] = [];
  let head = 0;

  function dropOldest(): void {
    seen.delete(queue[head++]!);
    // The queue is cut when half of it is dropped keys: each key is copied at most once more.
    if (head >= maxKeys) {
      queue = queue.slice(head);
      head = 0;
    }
  }

  return {
    async first(key, expiresAt) {
      const now = Date.now();
      const until = seen.get(key);
      if (until !== undefined && until > now) return false;
      if (until === undefined) {
        while (seen.size >= maxKeys && seen.get(queue[head]!)! <= now) dropOldest();
        if (seen.size >= maxKeys) dropOldest();
        queue.push(key);
      }
      seen.set(key, expiresAt.getTime());
      return true;
    },
  };
}
