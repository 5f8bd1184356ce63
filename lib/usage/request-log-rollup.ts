import "server-only";
import type { Db } from "../db";
import { addLatency, emptyHistogram, type LatencyHistogram, mergeInto, parseHistogram } from "./latency-histogram";

const HOUR_MS = 3_600_000;

export type RollupResult = { rolledUp: number; batches: number };

type Group = {
  hour: Date;
  environment: string;
  api: string;
  clientId: string;
  method: string;
  route: string;
  status: number;
  /** "" for rows without a problem */
  problem: string;
  requests: number;
  latencyMsSum: number;
  latencyMsMax: number;
  histogram: LatencyHistogram;
};

/** Rows older than the retention, up to the hour they fall in, so that an hour is rolled up whole. */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(Math.floor((now.getTime() - retentionDays * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS);
}

function groupRows(
  rows: {
    at: Date;
    environment: string;
    api: string;
    clientId: string | null;
    method: string;
    route: string;
    status: number;
    problem: string | null;
    latencyMs: number;
  }[],
) {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const hour = new Date(Math.floor(row.at.getTime() / HOUR_MS) * HOUR_MS);
    const clientId = row.clientId ?? "";
    const problem = row.problem ?? "";
    const key = JSON.stringify([hour.getTime(), row.environment, row.api, clientId, row.method, row.route, row.status, problem]);
    let group = groups.get(key);
    if (!group) {
      group = {
        hour,
        environment: row.environment,
        api: row.api,
        clientId,
        method: row.method,
        route: row.route,
        status: row.status,
        problem,
        requests: 0,
        latencyMsSum: 0,
        latencyMsMax: 0,
        histogram: emptyHistogram(),
      };
      groups.set(key, group);
    }
    group.requests += 1;
    group.latencyMsSum += row.latencyMs;
    group.latencyMsMax = Math.max(group.latencyMsMax, row.latencyMs);
    addLatency(group.histogram, row.latencyMs);
  }
  return [...groups.values()];
}

/**
 * One batch: the oldest raw rows before the cutoff are added to their hourly
 * aggregates and deleted, in one transaction. If another instance took some of
 * the rows first, fewer are deleted than were read, and the batch rolls back
 * rather than counting them twice.
 */
async function rollUpBatch(db: Db, cutoff: Date, batchSize: number): Promise<number> {
  return db.$transaction(async (tx) => {
    const rows = await tx.requestLog.findMany({
      where: { at: { lt: cutoff } },
      orderBy: { id: "asc" },
      take: batchSize,
      select: { id: true, at: true, environment: true, api: true, clientId: true, method: true, route: true, status: true, problem: true, latencyMs: true },
    });
    if (rows.length === 0) return 0;
    for (const group of groupRows(rows)) {
      const { histogram, ...key } = group;
      const where = {
        hour: key.hour,
        environment: key.environment,
        api: key.api,
        clientId: key.clientId,
        method: key.method,
        route: key.route,
        status: key.status,
        problem: key.problem,
      };
      const existing = await tx.requestLogHourly.findUnique({ where: { hour_environment_api_clientId_method_route_status_problem: where } });
      if (existing) {
        const merged = parseHistogram(existing.latencyHistogram);
        mergeInto(merged, histogram);
        await tx.requestLogHourly.update({
          where: { id: existing.id },
          data: {
            requests: { increment: group.requests },
            latencyMsSum: { increment: group.latencyMsSum },
            // An aggregate whose slowest call was never kept stays without one: the new rows cannot tell it.
            latencyMsMax: existing.latencyMsMax === null ? null : Math.max(existing.latencyMsMax, group.latencyMsMax),
            latencyHistogram: JSON.stringify(merged),
          },
        });
      } else {
        await tx.requestLogHourly.create({
          data: {
            ...where,
            requests: group.requests,
            latencyMsSum: group.latencyMsSum,
            latencyMsMax: group.latencyMsMax,
            latencyHistogram: JSON.stringify(histogram),
          },
        });
      }
    }
    const deleted = await tx.requestLog.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
    if (deleted.count !== rows.length) throw new Error("request-log rows were rolled up concurrently");
    return rows.length;
  });
}

/** Rolls up and deletes every raw request-log row older than the retention, batch by batch. */
export async function rollUpRequestLog(
  db: Db,
  { retentionDays, now = new Date(), batchSize = 2_000 }: { retentionDays: number; now?: Date; batchSize?: number },
): Promise<RollupResult> {
  const cutoff = retentionCutoff(now, retentionDays);
  let rolledUp = 0;
  let batches = 0;
  for (;;) {
    const count = await rollUpBatch(db, cutoff, batchSize);
    if (count === 0) return { rolledUp, batches };
    rolledUp += count;
    batches += 1;
  }
}
