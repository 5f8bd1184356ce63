/** A notification as its 200 answer carries it, encoded once for every read. */
export type RenderedNotification = { etag: string; body: Uint8Array<ArrayBuffer> };

export type NotificationReadCache = {
  /** The cached answer for `key`, else what `load` gives, which is then kept for the next read. */
  read(key: string, load: () => Promise<RenderedNotification>): Promise<RenderedNotification>;
  /** Forgets `key`; a load under way when this is called is not stored. */
  evict(key: string): void;
};

/** Notifications are cached per environment, client and id, so one client never reads another's entry. */
export function notificationCacheKey(owner: { environmentId: string; clientId: string }, id: string): string {
  return `${owner.environmentId}:${owner.clientId}:${id}`;
}

/**
 * Recently read notifications, so that reading one again costs no query.
 * A change made through this instance evicts its entry before the change is
 * answered; changes announced by other instances evict through `evict`; an
 * entry lives `ttlMs` at most, which bounds what a missed announcement costs.
 * Misses (404s) are never stored, so a new notification is readable at once.
 */
export function createNotificationReadCache(
  options: { maxEntries?: number; ttlMs?: number; now?: () => number; onLookup?: (hit: boolean) => void } = {},
): NotificationReadCache {
  const { maxEntries = 10_000, ttlMs = 5_000, now = Date.now, onLookup = () => undefined } = options;
  const entries = new Map<string, { value: RenderedNotification; expiresAt: number }>();
  // Bumped by every eviction: a load that began before one may hold what the eviction replaced.
  let generation = 0;

  return {
    async read(key, load) {
      const entry = entries.get(key);
      const hit = entry !== undefined && entry.expiresAt > now();
      onLookup(hit);
      if (hit) return entry.value;
      const startedAt = generation;
      const value = await load();
      if (generation === startedAt) {
        entries.delete(key);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { value, expiresAt: now() + ttlMs });
      }
      return value;
    },
    evict(key) {
      generation++;
      entries.delete(key);
    },
  };
}
