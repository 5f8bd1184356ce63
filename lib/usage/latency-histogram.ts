/**
 * Latencies counted in fixed buckets, so that hourly rollups can be merged and
 * still answer p50 and p95 (to the bucket's upper bound) after the raw rows are gone.
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

/** The upper bound of the bucket holding the given fraction of calls; the slowest finite bound for the open-ended one. */
export function percentileMs(histogram: LatencyHistogram, fraction: number): number {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return 0;
  const rank = Math.ceil(total * fraction);
  let seen = 0;
  for (const [index, count] of histogram.entries()) {
    seen += count;
    if (seen >= rank) return Math.min(LATENCY_BOUNDS_MS[index]!, LATENCY_BOUNDS_MS.at(-2)!);
  }
  return LATENCY_BOUNDS_MS.at(-2)!;
}
