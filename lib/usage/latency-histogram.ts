/**
 * Latencies counted in fixed buckets, so that hourly rollups can be merged and
 * still answer p50 and p95 after the raw rows are gone.
 */
export const LATENCY_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, Number.POSITIVE_INFINITY];

export type LatencyHistogram = number[];

export function emptyHistogram(): LatencyHistogram {
  return LATENCY_BOUNDS_MS.map(() => 0);
}

export function addLatency(histogram: LatencyHistogram, latencyMs: number, count = 1): void {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => latencyMs <= bound);
  histogram[index] = (histogram[index] ?? 0) + count;
}

export function mergeInto(target: LatencyHistogram, source: LatencyHistogram): void {
  source.forEach((count, index) => {
    if (index < target.length) target[index] = target[index]! + count;
  });
}

/** Tolerates what an older version may have stored: anything unreadable counts as empty. */
export function parseHistogram(text: string): LatencyHistogram {
  try {
    const value: unknown = JSON.parse(text);
    const histogram = emptyHistogram();
    if (Array.isArray(value))
      mergeInto(
        histogram,
        value.map((count) => (Number.isFinite(count) ? Number(count) : 0)),
      );
    return histogram;
  } catch {
    return emptyHistogram();
  }
}

/**
 * An estimate of the latency below which the given fraction of calls fall: the calls of
 * the bucket holding that rank are taken as spread evenly over it, and no estimate exceeds
 * `maxMs`, the slowest call recorded. Without a known maximum the open-ended bucket reads as
 * its lower bound. Null when the histogram holds no calls.
 */
export function percentileMs(histogram: LatencyHistogram, fraction: number, maxMs: number | null): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = total * fraction;
  let below = 0;
  for (const [index, count] of histogram.entries()) {
    if (count > 0 && below + count >= rank) {
      const lower = index === 0 ? 0 : LATENCY_BOUNDS_MS[index - 1]!;
      const bound = LATENCY_BOUNDS_MS[index]!;
      const upper = Number.isFinite(bound) ? bound : (maxMs ?? lower);
      const estimate = lower + ((upper - lower) * (rank - below)) / count;
      return maxMs === null ? estimate : Math.min(estimate, maxMs);
    }
    below += count;
  }
  return maxMs;
}
