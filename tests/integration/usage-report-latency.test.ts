import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { migratedDatabase } from "../../lib/database/migrated-database";
import { rollUpRequestLog } from "../../lib/usage/request-log-rollup";
import { usageReport } from "../../lib/usage/usage-report";

let db: Db;
let close: () => Promise<void>;

const NOW = new Date("2026-11-23T12:30:00Z");
const hoursAgo = (hours: number, minutes = 0) => new Date(NOW.getTime() - hours * 3_600_000 - minutes * 60_000);

function row(clientId: string, at: Date, latencyMs: number, index: number) {
  return {
    at,
    environment: "sso-qa",
    api: "orders",
    clientId,
    method: "GET",
    route: "/v1/orders",
    status: 200,
    latencyMs,
    requestId: `req_${clientId}_${index}`,
  };
}

beforeAll(async () => {
  ({ db, close } = await migratedDatabase());
});

afterAll(async () => {
  await close?.();
});

describe("usage report latencies", () => {
  it("estimates p50 and p95 within their bucket and never above the slowest call, before and after the rows are rolled up", async () => {
    // Slow calls of just over 10 s sit in the 10-30 s bucket, whose upper bound is no measurement.
    const slow = [10_001, 10_002, 10_000.5].map((latency, index) => row("gci_slow", hoursAgo(72, index), latency, index));
    const fast = Array.from({ length: 17 }, (_, index) => row("gci_slow", hoursAgo(72, 10 + index), 150, 10 + index));
    await db.requestLog.createMany({ data: [...slow, ...fast] });

    const before = await usageReport(db, { clients: ["gci_slow"] }, "7d", NOW);
    expect(before.totals).toMatchObject({ requests: 20, maxMs: 10_002, p95Ms: 10_002 });
    // Rank 10 of 20 lies in the 100-200 ms bucket, 10 of its 17 calls in.
    expect(before.totals.p50Ms).toBeCloseTo(100 + (100 * 10) / 17, 6);
    expect(before.topOperations[0]?.p95Ms).toBe(10_002);

    await rollUpRequestLog(db, { retentionDays: 2, now: NOW });
    const [hourly] = await db.requestLogHourly.findMany({ where: { clientId: "gci_slow" } });
    expect(hourly).toMatchObject({ requests: 20, latencyMsMax: 10_002 });

    const after = await usageReport(db, { clients: ["gci_slow"] }, "7d", NOW);
    expect(after.totals).toEqual(before.totals);
    expect(after.series.filter((point) => point.requests > 0)).toEqual(before.series.filter((point) => point.requests > 0));
  });

  it("raises an aggregate's slowest call with a later batch of its hour, and keeps an aggregate without one without one", async () => {
    await db.requestLog.createMany({ data: [row("gci_slow", hoursAgo(72, 28), 12_000, 50)] });
    await rollUpRequestLog(db, { retentionDays: 2, now: NOW });
    expect(await db.requestLogHourly.findFirstOrThrow({ where: { clientId: "gci_slow" } })).toMatchObject({ requests: 21, latencyMsMax: 12_000 });

    // An hour rolled up before the slowest call was kept.
    await db.requestLogHourly.create({
      data: {
        hour: new Date("2026-11-20T10:00:00Z"),
        environment: "sso-qa",
        api: "orders",
        clientId: "gci_old",
        method: "GET",
        route: "/v1/orders",
        status: 200,
        requests: 2,
        latencyMsSum: 80_000,
        latencyMsMax: null,
        latencyHistogram: JSON.stringify([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]),
      },
    });
    await db.requestLog.createMany({ data: [row("gci_old", new Date("2026-11-20T10:30:00Z"), 50_000, 1)] });
    await rollUpRequestLog(db, { retentionDays: 2, now: NOW });
    expect(await db.requestLogHourly.findFirstOrThrow({ where: { clientId: "gci_old" } })).toMatchObject({ requests: 3, latencyMsMax: null });

    // Without a known slowest call, the open-ended bucket reads as its lower bound.
    const report = await usageReport(db, { clients: ["gci_old"] }, "7d", NOW);
    expect(report.totals).toMatchObject({ requests: 3, maxMs: null, p50Ms: 30_000, p95Ms: 30_000 });
    const both = await usageReport(db, { clients: ["gci_old", "gci_slow"] }, "7d", NOW);
    expect(both.totals.maxMs).toBeNull();
  });

  it("has no latencies for a period without calls", async () => {
    const report = await usageReport(db, { clients: ["gci_none"] }, "30d", NOW);
    expect(report.totals).toEqual({ requests: 0, errors: 0, p50Ms: null, p95Ms: null, maxMs: null });
    expect(report.series.every((point) => point.p50Ms === null && point.p95Ms === null)).toBe(true);
  });
});
