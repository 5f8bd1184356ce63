import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { rollUpRequestLog } from "../../lib/usage/request-log-rollup";
import { usageReport } from "../../lib/usage/usage-report";
import { migratedDatabase } from "../../lib/database/migrated-database";

let db: Db;
let close: () => Promise<void>;

const NOW = new Date("2026-11-23T12:30:00Z");
const hoursAgo = (hours: number, minutes = 0) => new Date(NOW.getTime() - hours * 3_600_000 - minutes * 60_000);

function row(at: Date, status: number, latencyMs: number, index: number, clientId: string | null = "gci_a", problem: string | null = null) {
  return {
    at,
    environment: "sso-qa",
    api: "notifications",
    clientId,
    method: "GET",
    route: "/v1/notifications",
    status,
    latencyMs,
    requestId: `req_${index}`,
    problem,
  };
}

beforeAll(async () => {
  ({ db, close } = await migratedDatabase());
});

afterAll(async () => {
  await close?.();
});

describe("request-log retention", () => {
  it("rolls raw rows past the retention up into hourly aggregates in batches, deletes them, and keeps the charts' numbers", async () => {
    const old = [
      row(hoursAgo(72, 10), 200, 4, 1),
      row(hoursAgo(72, 20), 200, 40, 2),
      row(hoursAgo(72, 25), 401, 3, 3, "gci_a", "token-expired"),
      row(hoursAgo(72, 40), 200, 900, 4),
      row(hoursAgo(50), 200, 1, 5, null),
    ];
    const recent = [row(hoursAgo(1), 200, 8, 6), row(hoursAgo(2), 500, 30, 7, "gci_a", "internal-error")];
    await db.requestLog.createMany({ data: [...old, ...recent] });
    const before = await usageReport(db, { clients: "all" }, "7d", NOW);

    const result = await rollUpRequestLog(db, { retentionDays: 2, now: NOW, batchSize: 2 });
    expect(result).toEqual({ rolledUp: 5, batches: 3 });
    expect((await db.requestLog.findMany({ orderBy: { id: "asc" } })).map((kept) => kept.requestId)).toEqual(["req_6", "req_7"]);
    const hourly = await db.requestLogHourly.findMany({ orderBy: [{ hour: "asc" }, { status: "asc" }, { clientId: "asc" }] });
    expect(
      hourly.map(({ hour, clientId, status, problem, requests, latencyMsSum }) => ({
        hour: hour.toISOString(),
        clientId,
        status,
        problem,
        requests,
        latencyMsSum,
      })),
    ).toEqual([
      { hour: "2026-11-20T11:00:00.000Z", clientId: "gci_a", status: 200, problem: "", requests: 1, latencyMsSum: 900 },
      { hour: "2026-11-20T12:00:00.000Z", clientId: "gci_a", status: 200, problem: "", requests: 2, latencyMsSum: 44 },
      { hour: "2026-11-20T12:00:00.000Z", clientId: "gci_a", status: 401, problem: "token-expired", requests: 1, latencyMsSum: 3 },
      { hour: "2026-11-21T10:00:00.000Z", clientId: "", status: 200, problem: "", requests: 1, latencyMsSum: 1 },
    ]);

    const after = await usageReport(db, { clients: "all" }, "7d", NOW);
    expect(after.totals).toEqual(before.totals);
    expect(after.totals).toMatchObject({ requests: 7, errors: 2 });
    expect(after.series.map((point) => point.requests)).toEqual(before.series.map((point) => point.requests));
    expect(after.byProblem).toEqual(before.byProblem);
    expect(after.byProblem).toHaveLength(2);
    expect(after.byProblem).toEqual(
      expect.arrayContaining([
        { problem: "token-expired", status: 401, requests: 1 },
        { problem: "internal-error", status: 500, requests: 1 },
      ]),
    );
    expect(after.topOperations[0]).toMatchObject({ api: "notifications", method: "GET", route: "/v1/notifications", requests: 7, errors: 2 });

    expect(await rollUpRequestLog(db, { retentionDays: 2, now: NOW })).toEqual({ rolledUp: 0, batches: 0 });
  });

  it("adds a later batch of the same hour to its aggregate instead of counting it twice", async () => {
    await db.requestLog.createMany({ data: [row(hoursAgo(72, 5), 200, 15, 8)] });
    await rollUpRequestLog(db, { retentionDays: 2, now: NOW });
    const aggregate = await db.requestLogHourly.findFirstOrThrow({ where: { hour: new Date("2026-11-20T12:00:00Z"), status: 200 } });
    expect(aggregate).toMatchObject({ requests: 3, latencyMsSum: 59 });
  });

  it("shows a developer's report only their own clients, and nothing for none", async () => {
    expect((await usageReport(db, { clients: ["gci_a"] }, "7d", NOW)).totals.requests).toBe(7);
    expect((await usageReport(db, { clients: ["gci_other"] }, "7d", NOW)).totals.requests).toBe(0);
    expect((await usageReport(db, { clients: [] }, "30d", NOW)).totals.requests).toBe(0);
    const monthly = await usageReport(db, { clients: "all" }, "30d", NOW);
    expect(monthly.series).toHaveLength(30);
    expect(monthly.totals.requests).toBe(8);
  });

  it("keeps failures of one hour and status apart by problem type, and upstream answers apart from both", async () => {
    const at = (minutes: number) => hoursAgo(80, minutes);
    await db.requestLog.createMany({
      data: [
        row(at(1), 401, 2, 20, "gci_b", "token-expired"),
        row(at(2), 401, 2, 21, "gci_b", "token-expired"),
        row(at(3), 401, 2, 22, "gci_b", "token-invalid"),
        row(at(4), 404, 2, 23, "gci_b"),
        row(at(5), 200, 2, 24, "gci_b"),
      ],
    });
    const before = await usageReport(db, { clients: ["gci_b"] }, "7d", NOW);
    await rollUpRequestLog(db, { retentionDays: 2, now: NOW });
    const hourly = await db.requestLogHourly.findMany({ where: { clientId: "gci_b" }, orderBy: [{ status: "asc" }, { problem: "asc" }] });
    expect(hourly.map(({ status, problem, requests }) => ({ status, problem, requests }))).toEqual([
      { status: 200, problem: "", requests: 1 },
      { status: 401, problem: "token-expired", requests: 2 },
      { status: 401, problem: "token-invalid", requests: 1 },
      { status: 404, problem: "", requests: 1 },
    ]);
    const after = await usageReport(db, { clients: ["gci_b"] }, "7d", NOW);
    const expected = [
      { problem: "token-expired", status: 401, requests: 2 },
      { problem: "token-invalid", status: 401, requests: 1 },
      { problem: null, status: 404, requests: 1 },
    ];
    // Most frequent first; types as frequent as each other come in no set order.
    for (const report of [before, after]) {
      expect(report.byProblem[0]).toEqual(expected[0]);
      expect(report.byProblem).toHaveLength(3);
      expect(report.byProblem).toEqual(expect.arrayContaining(expected));
    }
  });
});
