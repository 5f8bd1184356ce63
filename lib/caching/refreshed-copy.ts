/** A value read from the database, kept, and read again as it ages. */
export type RefreshedCopy<T> = {
  /**
   * The copy, read at most `maxAgeMs` ago. Past `refreshAfterMs` it is answered at once while
   * one reload runs beside the caller; past `maxAgeMs` the caller waits for a reload and gets
   * its failure when it fails.
   */
  get(): Promise<T>;
  /** the copy kept, whatever its age; undefined before the first read answers */
  kept(): T | undefined;
  /** the copy `get` answers at once without starting a reload (younger than `refreshAfterMs`, read since the last expiry); else undefined */
  fresh(): T | undefined;
  /**
   * The copy and reads begun before now are no longer answered, as the database changed since;
   * a copy that was read is read again at once, one never read waits for its first caller.
   */
  expire(): void;
};

type Read<T> = { value: Promise<T>; startedAt: number };

/**
 * Ages run from when a read began, so a copy read at `startedAt` holds every change committed
 * before it. Callers share a read under way, a waiting caller only one begun within `maxAgeMs`:
 * a read that hangs is not waited for past the bound, and replacing it keeps to one read at a time.
 */
export function createRefreshedCopy<T>(load: () => Promise<T>, options: { refreshAfterMs: number; maxAgeMs: number }): RefreshedCopy<T> {
  const { refreshAfterMs, maxAgeMs } = options;
  let copy: { value: T; readAt: number } | undefined;
  let reading: Read<T> | undefined;
  let notBefore = -Infinity;

  function read(now: number): Promise<T> {
    if (reading && now - reading.startedAt < maxAgeMs && reading.startedAt >= notBefore) return reading.value;
    const started: Read<T> = { value: load(), startedAt: now };
    reading = started;
    started.value
      .then(
        (value) => {
          if (!copy || copy.readAt < started.startedAt) copy = { value, readAt: started.startedAt };
        },
        () => undefined,
      )
      .finally(() => {
        if (reading === started) reading = undefined;
      });
    return started.value;
  }

  return {
    async get() {
      const now = performance.now();
      const age = copy && copy.readAt >= notBefore ? now - copy.readAt : Infinity;
      if (age >= maxAgeMs) return read(now);
      if (age >= refreshAfterMs) read(now).catch(() => undefined);
      return copy!.value;
    },
    kept: () => copy?.value,
    fresh() {
      if (!copy || copy.readAt < notBefore || performance.now() - copy.readAt >= refreshAfterMs) return undefined;
      return copy.value;
    },
    expire() {
      notBefore = performance.now();
      if (copy) read(notBefore).catch(() => undefined);
    },
  };
}
