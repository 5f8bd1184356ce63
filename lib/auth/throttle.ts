import "server-only";

type Window = { count: number; resetAt: number };

/**
 * Counts events per key in fixed windows, in process memory. Sign-in failures
 * and contact submissions are rare enough that one instance's view suffices.
 */
export function createThrottle(options: { limit: number; windowMs: number; now?: () => number }) {
  const windows = new Map<string, Window>();
  const now = options.now ?? Date.now;

  function current(key: string): Window | undefined {
    const window = windows.get(key);
    if (window && window.resetAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return window;
  }

  return {
    /** Seconds until the key may try again, or 0 when it is not throttled. */
    retryAfter(key: string): number {
      const window = current(key);
      return window && window.count >= options.limit ? Math.ceil((window.resetAt - now()) / 1000) : 0;
    },
    record(key: string): void {
      const window = current(key);
      if (window) window.count += 1;
      else windows.set(key, { count: 1, resetAt: now() + options.windowMs });
      if (windows.size > 50_000) windows.delete(windows.keys().next().value as string);
    },
    clear(key: string): void {
      windows.delete(key);
    },
  };
}

const globalForThrottles = globalThis as unknown as { gatehouseThrottles?: Map<string, ReturnType<typeof createThrottle>> };

/** One throttle per name per process, shared across Next's module instances. */
export function sharedThrottle(name: string, limit: number, windowMs: number) {
  const throttles = (globalForThrottles.gatehouseThrottles ??= new Map());
  let throttle = throttles.get(name);
  if (!throttle) {
    throttle = createThrottle({ limit, windowMs });
    throttles.set(name, throttle);
  }
  return throttle;
}

/**
 * The client's address: the last X-Forwarded-For entry, which the nearest
 * proxy (or Next itself, from the socket) wrote; earlier entries are the
 * client's to invent.
 */
export function clientAddress(headers: Headers | Record<string, string | string[] | undefined>): string {
  const read = (name: string) => (headers instanceof Headers ? headers.get(name) : [headers[name]].flat()[0]);
  return read("x-forwarded-for")?.split(",").at(-1)?.trim() || "unknown";
}
