/**
 * Places of a holder's open WebSocket connections, counted in this process or, with Redis,
 * across every gateway process on it.
 */
export type ConnectionPlaces = {
  /** Takes one of `max` places of `key`; resolves what gives it back (a second call does nothing), or undefined when all are taken. */
  take(key: string, max: number): Promise<(() => void) | undefined>;
  /** Gives back every place this process holds, as it stops. */
  close(): Promise<void>;
};

/** The places this process holds itself. */
export function createMemoryConnectionPlaces(): ConnectionPlaces {
  const held = new Map<string, number>();
  return {
    async take(key, max) {
      const count = held.get(key) ?? 0;
      if (count >= max) return undefined;
      held.set(key, count + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const left = (held.get(key) ?? 1) - 1;
        if (left === 0) held.delete(key);
        else held.set(key, left);
      };
    },
    async close() {
      held.clear();
    },
  };
}
