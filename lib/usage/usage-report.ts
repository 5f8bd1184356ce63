import "server-only";
import type { Db } from "../db";
import { addLatency, emptyHistogram, type LatencyHistogram, mergeInto, parseHistogram, percentileMs } from "./latency-histogram";

export const USAGE_RANGES = {
  "7d": { label: "Last 7 days", days: 7, bucketHours: 1 },
  "30d": { label: "Last 30 days", days: 30, bucketHours: 24 },
} as const;
export type UsageRange = keyof typeof USAGE_RANGES;

export function parseUsageRange(value: string | undefined): UsageRange {
  return value === "30d" ? "30d" : "7d";
}

/** Whose requests: every client's (admins), or the listed clients' only — an empty list means none. */
export type UsageScope = { clients: "all" | string[]; environment?: string; api?: string };

/** Raw rows read per report; beyond this the report says it is a sample. */
const MAX_RAW_ROWS = 200_000;

/** `maxMs`: the slowest call counted, null when some of them were rolled up before the slowest was kept. */
type Tally = { requests: number; errors: number; histogram: LatencyHistogram; maxMs: number | null };

/** Latency percentiles are estimates within a histogram bucket (`percentileMs`); null without calls. */
export type UsageLatency = { p50Ms: number | null; p95Ms: number | null };
export type UsagePoint = UsageLatency & { start: Date; requests: number; errors: number };
export type UsageCount = { key: string; requests: number; errors: number };
export type UsageOperation = UsageCount & { api: string; method: string; route: string; p95Ms: number | null };
/** Failed requests of one problem type and status; `problem` is null for upstream answers, which Gatehouse did not produce. */
export type UsageProblem = { problem: string | null; status: number; requests: number };

export type UsageReport = {
  range: UsageRange;
  since: Date;
  bucketHours: number;
  sampled: boolean;
  totals: UsageLatency & { requests: number; errors: number; maxMs: number | null };
  series: UsagePoint[];
  byProblem: UsageProblem[];
  topOperations: UsageOperation[];
  byApi: UsageCount[];
  byEnvironment: UsageCount[];
  byClient: UsageCount[];
};

type Entry = {
  at: Date;
  environment: string;
  api: string;
  clientId: string;
  method: string;
  route: string;
  status: number;
  problem: string;
  requests: number;
  histogram: LatencyHistogram;
  maxMs: number | null;
};

const emptyTally = (): Tally => ({ requests: 0, errors: 0, histogram: emptyHistogram(), maxMs: 0 });

function add(tally: Tally, entry: Entry) {
  tally.requests += entry.requests;
  if (entry.status >= 400) tally.errors += entry.requests;
  mergeInto(tally.histogram, entry.histogram);
  tally.maxMs = tally.maxMs === null || entry.maxMs === null ? null : Math.max(tally.maxMs, entry.maxMs);
}

function latency(tally: Tally): UsageLatency {
  return { p50Ms: percentileMs(tally.histogram, 0.5, tally.maxMs), p95Ms: percentileMs(tally.histogram, 0.95, tally.maxMs) };
}

function tallyBy(entries: Entry[], keyOf: (entry: Entry) => string): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const entry of entries) {
    const key = keyOf(entry);
    const tally = tallies.get(key) ?? emptyTally();
    add(tally, entry);
    tallies.set(key, tally);
  }
  return tallies;
}

function counts(tallies: Map<string, Tally>): UsageCount[] {
  return [...tallies].map(([key, tally]) => ({ key, requests: tally.requests, errors: tally.errors })).sort((a, b) => b.requests - a.requests);
}

/** Raw rows of the range that are still kept, and the hourly rollups of those that are not. */
async function readEntries(db: Db, scope: UsageScope, since: Date): Promise<{ entries: Entry[]; sampled: boolean }> {
  if (scope.clients !== "all" && scope.clients.length === 0) return { entries: [], sampled: false };
  const common = {
    ...(scope.environment ? { environment: scope.environment } : {}),
    ...(scope.api ? { api: scope.api } : {}),
  };
  const [raw, hourly] = await Promise.all([
    db.requestLog.findMany({
      where: { at: { gte: since }, ...common, ...(scope.clients === "all" ? {} : { clientId: { in: scope.clients } }) },
      select: { at: true, environment: true, api: true, clientId: true, method: true, route: true, status: true, problem: true, latencyMs: true },
      orderBy: { at: "desc" },
      take: MAX_RAW_ROWS,
    }),
    db.requestLogHourly.findMany({ where: { hour: { gte: since }, ...common, ...(scope.clients === "all" ? {} : { clientId: { in: scope.clients } }) } }),
  ]);
  const entries: Entry[] = raw.map((row) => {
    const histogram = emptyHistogram();
    addLatency(histogram, row.latencyMs);
    return { ...row, clientId: row.clientId ?? "", problem: row.problem ?? "", requests: 1, histogram, maxMs: row.latencyMs };
  });
  for (const row of hourly)
    entries.push({ ...row, at: row.hour, requests: row.requests, histogram: parseHistogram(row.latencyHistogram), maxMs: row.latencyMsMax });
  return { entries, sampled: raw.length === MAX_RAW_ROWS };
}

/** The first instant a report of `range` covers: its buckets end at the next bucket boundary after `now`. */
export function usageRangeStart(range: UsageRange, now = new Date()): Date {
  const { days, bucketHours } = USAGE_RANGES[range];
  const bucketMs = bucketHours * 3_600_000;
  return new Date(Math.ceil(now.getTime() / bucketMs) * bucketMs - days * 24 * 3_600_000);
}

/**
 * Requests, errors and latency percentiles over the last 7 days (per hour) or
 * 30 days (per day), with the errors by problem type and the busiest operations.
 */
export async function usageReport(db: Db, scope: UsageScope, range: UsageRange, now = new Date()): Promise<UsageReport> {
  const { days, bucketHours } = USAGE_RANGES[range];
  const bucketMs = bucketHours * 3_600_000;
  const since = usageRangeStart(range, now);
  const { entries, sampled } = await readEntries(db, scope, since);

  const buckets = Array.from({ length: (days * 24) / bucketHours }, emptyTally);
  const total = emptyTally();
  for (const entry of entries) {
    const bucket = buckets[Math.floor((entry.at.getTime() - since.getTime()) / bucketMs)];
    if (bucket) add(bucket, entry);
    add(total, entry);
  }
  const operations = tallyBy(entries, (entry) => JSON.stringify([entry.api, entry.method, entry.route]));
  return {
    range,
    since,
    bucketHours,
    sampled,
    totals: { requests: total.requests, errors: total.errors, ...latency(total), maxMs: total.requests === 0 ? null : total.maxMs },
    series: buckets.map((bucket, index) => ({
      start: new Date(since.getTime() + index * bucketMs),
      requests: bucket.requests,
      errors: bucket.errors,
      ...latency(bucket),
    })),
    byProblem: counts(
      tallyBy(
        entries.filter((entry) => entry.status >= 400),
        (entry) => JSON.stringify([entry.problem, entry.status]),
      ),
    ).map((count) => {
      const [problem, status] = JSON.parse(count.key) as [string, number];
      return { problem: problem || null, status, requests: count.requests };
    }),
    topOperations: [...operations]
      .map(([key, tally]) => {
        const [api, method, route] = JSON.parse(key) as [string, string, string];
        return { key, api, method, route, requests: tally.requests, errors: tally.errors, p95Ms: latency(tally).p95Ms };
      })
      .sort((a, b) => b.requests - a.requests)
      .slice(0, 10),
    byApi: counts(tallyBy(entries, (entry) => entry.api)),
    byEnvironment: counts(tallyBy(entries, (entry) => entry.environment)),
    byClient: counts(tallyBy(entries, (entry) => entry.clientId)),
  };
}
