// The quota counted in the database, as gateways without Redis count it (lib/limiters/quota.ts and the
// data-plane store's takeQuota), on the dialect under test: exact with two connections taking at once,
// and starting again at 0 when the next calendar period begins.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDriver } from "../../lib/data-plane/connection";
import { createDataPlaneStore } from "../../lib/data-plane/store-for-connection";
import { migratedDatabase } from "../../lib/database/migrated-database";
import { newId } from "../../lib/ids";
import { createDatabaseQuotaCounter } from "../../lib/limiters/quota";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;
let other: ReturnType<typeof openDriver>;

beforeAll(async () => {
  fixture = await migratedDatabase();
  other = openDriver(fixture.database.url);
});

afterAll(async () => {
  await other?.close();
  await fixture?.close();
});

const counterOf = (store: typeof fixture.store) => createDatabaseQuotaCounter((id, start, limit) => store.takeQuota(id, start, limit));

describe("a quota counted in the database", () => {
  it("admits exactly the quota when two instances take at once", async () => {
    const subscriptionId = newId("sub");
    const counters = [counterOf(fixture.store), counterOf(createDataPlaneStore(other))];
    const now = new Date("2026-11-29T10:00:00Z");
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, index) => counters[index % 2]!.take(subscriptionId, { requests: 13, period: "day" }, now)),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(13);
    expect(
      decisions
        .filter((decision) => decision.allowed)
        .map((decision) => decision.used)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 13 }, (_, index) => index + 1));
    const row = await fixture.db.quotaUsage.findUniqueOrThrow({
      where: { subscriptionId_periodStart: { subscriptionId, periodStart: new Date("2026-11-29T00:00:00Z") } },
    });
    expect(row.used).toBe(13);
  });

  it("starts again at the next period, and keeps the count of the one before", async () => {
    const subscriptionId = newId("sub");
    const counter = counterOf(fixture.store);
    const policy = { requests: 2, period: "hour" } as const;
    const before = new Date("2026-11-29T10:59:59.500Z");
    expect((await counter.take(subscriptionId, policy, before)).allowed).toBe(true);
    expect((await counter.take(subscriptionId, policy, before)).allowed).toBe(true);
    const refused = await counter.take(subscriptionId, policy, before);
    expect(refused).toMatchObject({ allowed: false, window: { end: new Date("2026-11-29T11:00:00Z") } });
    const after = await counter.take(subscriptionId, policy, new Date("2026-11-29T11:00:00.000Z"));
    expect(after).toMatchObject({ allowed: true, used: 1, window: { start: new Date("2026-11-29T11:00:00Z") } });
    const rows = await fixture.db.quotaUsage.findMany({ where: { subscriptionId }, orderBy: { periodStart: "asc" } });
    expect(rows.map((row) => row.used)).toEqual([2, 1]);
  });
});
