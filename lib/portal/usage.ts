import "server-only";
import { db } from "../db";

export const USAGE_WINDOWS = { "24h": { hours: 24, bucketMinutes: 60 }, "7d": { hours: 168, bucketMinutes: 360 } } as const;
export type UsageWindow = keyof typeof USAGE_WINDOWS;

/** Rows read per chart; beyond this the chart says it is a sample. */
const MAX_ROWS = 200_000;

export type UsageFilter = { window: UsageWindow; api?: string; environment?: string; clientId?: string };
export type UsageBucket = { start: Date; requests: number; errors: number; averageLatencyMs: number; p95LatencyMs: number };
export type UsageBreakdown = { key: string; label: string; requests: number; errors: number };

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

function breakdown<T extends { status: number }>(rows: T[], keyOf: (row: T) => string, labelOf: (key: string) => string): UsageBreakdown[] {
  const totals = new Map<string, { requests: number; errors: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const total = totals.get(key) ?? { requests: 0, errors: 0 };
    total.requests += 1;
    if (row.status >= 400) total.errors += 1;
    totals.set(key, total);
  }
  return [...totals].map(([key, total]) => ({ key, label: labelOf(key), ...total })).sort((a, b) => b.requests - a.requests);
}

/**
 * Requests, errors (status ≥ 400) and latency over time from the gateway's
 * request log, with totals per API, environment and application.
 */
export async function usageReport(filter: UsageFilter, now = new Date()) {
  const { hours, bucketMinutes } = USAGE_WINDOWS[filter.window];
  const bucketMs = bucketMinutes * 60_000;
  const end = Math.ceil(now.getTime() / bucketMs) * bucketMs;
  const since = new Date(end - hours * 3_600_000);
  const rows = await db().requestLog.findMany({
    where: {
      at: { gte: since },
      ...(filter.api ? { api: filter.api } : {}),
      ...(filter.environment ? { environment: filter.environment } : {}),
      ...(filter.clientId ? { clientId: filter.clientId } : {}),
    },
    select: { at: true, api: true, environment: true, clientId: true, status: true, latencyMs: true },
    orderBy: { at: "desc" },
    take: MAX_ROWS,
  });
  const buckets: { start: Date; latencies: number[]; errors: number }[] = [];
  for (let start = since.getTime(); start < end; start += bucketMs) buckets.push({ start: new Date(start), latencies: [], errors: 0 });
  for (const row of rows) {
    const bucket = buckets[Math.floor((row.at.getTime() - since.getTime()) / bucketMs)];
    if (!bucket) continue;
    bucket.latencies.push(row.latencyMs);
    if (row.status >= 400) bucket.errors += 1;
  }
  const series: UsageBucket[] = buckets.map((bucket) => {
    const sorted = bucket.latencies.sort((a, b) => a - b);
    return {
      start: bucket.start,
      requests: sorted.length,
      errors: bucket.errors,
      averageLatencyMs: sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : 0,
      p95LatencyMs: percentile(sorted, 0.95),
    };
  });
  const clientIds = [...new Set(rows.map((row) => row.clientId).filter((id): id is string => Boolean(id)))];
  const applications = new Map(
    (clientIds.length > 0
      ? await db().credential.findMany({ where: { clientId: { in: clientIds } }, select: { clientId: true, application: { select: { name: true } } } })
      : []
    ).map((credential) => [credential.clientId, credential.application.name]),
  );
  return {
    since,
    bucketMinutes,
    sampled: rows.length === MAX_ROWS,
    series,
    byApi: breakdown(rows, (row) => row.api, (key) => key),
    byEnvironment: breakdown(rows, (row) => row.environment, (key) => key),
    byApplication: breakdown(rows, (row) => row.clientId ?? "", (key) => (key ? `${applications.get(key) ?? "unknown"} (${key})` : "anonymous")),
  };
}
