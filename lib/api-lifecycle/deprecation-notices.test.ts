import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "../database/migrated-database";
import { POSTGRES_SERVER_URL } from "../database/test-databases";
import { createDb, type Db } from "../db";
import { newId } from "../ids";
import { rollUpRequestLog } from "../usage/request-log-rollup";
import { deprecatedCallsOf, deprecationCallers } from "./deprecated-calls";
import { sendDeprecationNotices } from "./deprecation-notices";
import { activeDeprecations, type Deprecation, deprecationUsage, loadDeprecation } from "./deprecation-usage";

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-11-20T12:00:00.000Z");
const SUNSET = new Date("2027-06-30T00:00:00.000Z");
const daysAgo = (days: number, minutes = 0) => new Date(NOW.getTime() - days * DAY_MS + minutes * 60_000);

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
let environmentId: string;
let v1: { id: string };
let deleteOperation: { id: string };
let retiredVersion: { id: string };
const clients = { alice: "", bob: "", carol: "", revoked: "" };

async function call(clientId: string | null, method: string, route: string, at: Date, api = "orders") {
  await db.requestLog.create({
    data: { at, environment: "sandbox", api, clientId, method, route, status: 200, latencyMs: 12, requestId: newId("req") },
  });
}

async function credential(name: string, status: "ACTIVE" | "REVOKED" = "ACTIVE", ownerId: string | null = null): Promise<string> {
  const applicationId = newId("app");
  await db.application.create({
    data: {
      id: applicationId,
      name,
      team: { create: { id: newId("team"), name: `Team of ${applicationId}` } },
      ...(ownerId ? { owner: { connect: { id: ownerId } } } : {}),
    },
  });
  const clientId = newId("gci");
  await db.credential.create({ data: { id: newId("cred"), clientId, applicationId, environmentId, status } });
  return clientId;
}

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  environmentId = newId("env");
  await db.environment.create({ data: { id: environmentId, slug: "sandbox", name: "Sandbox", credentialType: "PLATFORM" } });
  const api = await db.api.create({
    data: { id: newId("api"), slug: "orders", name: "Orders API", summary: "", description: "", version: "v2", tags: [], kind: "PROXY", changelog: [] },
  });
  v1 = await db.apiVersion.create({
    data: { id: newId("apv"), apiId: api.id, version: "v1", status: "deprecated", changelog: [], deprecatedAt: daysAgo(1), sunsetAt: SUNSET },
  });
  const v2 = await db.apiVersion.create({ data: { id: newId("apv"), apiId: api.id, version: "v2", status: "current", changelog: [] } });
  retiredVersion = await db.apiVersion.create({
    data: { id: newId("apv"), apiId: api.id, version: "v0", status: "retired", changelog: [], deprecatedAt: daysAgo(400) },
  });
  deleteOperation = await db.apiOperationDeprecation.create({
    data: { id: newId("apd"), apiVersionId: v2.id, method: "DELETE", path: "/v2/orders/{id}", deprecatedAt: daysAgo(1) },
  });
  const alice = await db.user.create({ data: { id: newId("usr"), email: "alice@example.com", name: "Alice" } });
  clients.alice = await credential("Alice's app", "ACTIVE", alice.id);
  clients.bob = await credential("Bob's app");
  clients.carol = await credential("Carol's app");
  clients.revoked = await credential("Revoked app", "REVOKED");

  // Alice: v1 calls ten days ago, rolled up into hourly aggregates below, and recent raw ones.
  for (const minutes of [0, 5, 10, 15, 20]) await call(clients.alice, "GET", "/v1/orders/{id}", daysAgo(10, minutes));
  await call(clients.alice, "GET", "/v1/orders/{id}", daysAgo(2));
  await call(clients.alice, "GET", "/v1/orders/{id}", daysAgo(1, 30));
  await call(clients.alice, "POST", "/v1/orders", daysAgo(3));
  await call(clients.alice, "GET", "/v2/orders", daysAgo(1));
  // Bob moved to v2 and calls the deprecated DELETE there, and v1 only before the window.
  await call(clients.bob, "GET", "/v2/orders", daysAgo(1));
  await call(clients.bob, "DELETE", "/v2/orders/{id}", daysAgo(2));
  await call(clients.bob, "DELETE", "/v2/orders/{id}", daysAgo(1));
  await call(clients.bob, "GET", "/v1/orders", daysAgo(40));
  // Carol calls another API's /v1/, anonymous calls have no client, and a revoked client cannot read notices.
  await call(clients.carol, "GET", "/v1/orders/{id}", daysAgo(1), "billing");
  await call(null, "GET", "/v1/orders/{id}", daysAgo(1));
  await call(clients.revoked, "GET", "/v1/orders", daysAgo(1));
  const rolled = await rollUpRequestLog(db, { retentionDays: 7, now: NOW });
  expect(rolled.rolledUp).toBe(6);
});

afterAll(async () => {
  await database?.close();
});

const deprecation = async (subject: Deprecation["subject"]) => (await loadDeprecation(db, subject))!;

describe("deprecationUsage", () => {
  it("counts a version's callers from the request log and its hourly rollups, per client and operation", async () => {
    const usage = await deprecationUsage(db, await deprecation({ kind: "version", id: v1.id }), { now: NOW });
    expect(usage).toEqual([
      {
        environment: "sandbox",
        clientId: clients.alice,
        count: 8,
        lastCalledAt: daysAgo(1, 30),
        operations: [
          { method: "GET", route: "/v1/orders/{id}", count: 7, lastCalledAt: daysAgo(1, 30) },
          { method: "POST", route: "/v1/orders", count: 1, lastCalledAt: daysAgo(3) },
        ],
      },
      { environment: "sandbox", clientId: clients.revoked, count: 1, lastCalledAt: daysAgo(1), operations: [expect.objectContaining({ count: 1 })] },
    ]);
  });

  it("reads a rolled-up hour's last call as the hour it was in, and leaves out calls before the window", async () => {
    const usage = await deprecationUsage(db, await deprecation({ kind: "version", id: v1.id }), { now: NOW, days: 5 });
    expect(usage.find((client) => client.clientId === clients.alice)?.count).toBe(3);
    const old = await deprecationUsage(db, await deprecation({ kind: "version", id: v1.id }), { now: daysAgo(9), days: 2 });
    expect(old).toEqual([
      {
        environment: "sandbox",
        clientId: clients.alice,
        count: 5,
        lastCalledAt: new Date(Math.floor(daysAgo(10).getTime() / 3_600_000) * 3_600_000),
        operations: [expect.objectContaining({ count: 5 })],
      },
    ]);
  });

  it("counts an operation's callers by its method and template only", async () => {
    const usage = await deprecationUsage(db, await deprecation({ kind: "operation", id: deleteOperation.id }), { now: NOW });
    expect(usage).toEqual([
      {
        environment: "sandbox",
        clientId: clients.bob,
        count: 2,
        lastCalledAt: daysAgo(1),
        operations: [{ method: "DELETE", route: "/v2/orders/{id}", count: 2, lastCalledAt: daysAgo(1) }],
      },
    ]);
  });

  it("narrows to the clients asked about", async () => {
    expect(await deprecationUsage(db, await deprecation({ kind: "version", id: v1.id }), { now: NOW, clientIds: [clients.bob] })).toEqual([]);
  });
});

describe("activeDeprecations", () => {
  it("lists deprecated versions and operations before their sunset, without retired versions", async () => {
    const active = await activeDeprecations(db, NOW);
    expect(active.map((entry) => [entry.version, entry.operation?.path ?? null, entry.sunsetAt])).toEqual([
      ["v1", null, SUNSET],
      ["v2", "/v2/orders/{id}", null],
    ]);
    expect(active.some((entry) => entry.subject.id === retiredVersion.id)).toBe(false);
    expect(await activeDeprecations(db, new Date(SUNSET.getTime() + 1))).toHaveLength(1);
  });
});

describe("deprecatedCallsOf and deprecationCallers", () => {
  it("give a credential's calls to each deprecation, and each deprecation's callers with their application", async () => {
    const mine = await deprecatedCallsOf(db, [clients.alice, clients.carol], { now: NOW });
    expect(mine.map(({ deprecation, calls }) => [deprecation.version, deprecation.operation, calls.clientId, calls.count])).toEqual([
      ["v1", null, clients.alice, 8],
    ]);
    expect(await deprecatedCallsOf(db, [], { now: NOW })).toEqual([]);
    const callers = await deprecationCallers(db, { now: NOW });
    expect(callers.map(({ deprecation, callers }) => [deprecation.version, callers.map((caller) => [caller.application, caller.owner, caller.count])])).toEqual(
      [
        [
          "v1",
          [
            ["Alice's app", "alice@example.com", 8],
            ["Revoked app", null, 1],
          ],
        ],
        ["v2", [["Bob's app", null, 2]]],
      ],
    );
  });
});

describe("sendDeprecationNotices", () => {
  it("notifies only the clients that called the version, with their operations, counts, last calls, sunset and migration page", async () => {
    const result = await sendDeprecationNotices(db, { subject: { kind: "version", id: v1.id }, now: NOW, publicUrl: "https://portal.example" });
    expect(result).toEqual({ sent: true, clientCount: 1 });
    const notifications = await db.notification.findMany({ where: { createdAt: NOW } });
    expect(notifications).toHaveLength(1);
    const [notice] = notifications;
    expect(notice).toMatchObject({
      environmentId,
      clientId: clients.alice,
      category: "release",
      severity: "warning",
      title: "Orders API v1 is deprecated",
      link: "https://portal.example/apis/orders?version=v2",
    });
    expect(notice!.body).toBe(
      [
        `Orders API v1 is deprecated. In the last 30 days your client ${clients.alice} called it 8 times:`,
        "- GET /v1/orders/{id}: 7 calls, last at 2026-11-19 12:30 UTC",
        "- POST /v1/orders: 1 call, last at 2026-11-17 12:00 UTC",
        "",
        "Sunset: 2027-06-30 00:00 UTC. After it the gateway answers these calls with 410 Gone.",
        "Move to v2: the API page shows what changed between the versions.",
      ].join("\n"),
    );
    expect(await db.deprecationNotice.findUnique({ where: { subject: `version:${v1.id}` } })).toMatchObject({ clientCount: 1, sentAt: NOW });
  });

  it("sends a subject's notice once", async () => {
    const later = new Date(NOW.getTime() + 60_000);
    expect(await sendDeprecationNotices(db, { subject: { kind: "version", id: v1.id }, now: later })).toEqual({ sent: false, reason: "already-sent" });
    expect(await db.notification.count({ where: { createdAt: later } })).toBe(0);
  });

  it("sends once when two processes send the same notice at the same time", async () => {
    // better-sqlite3 waits for SQLite's write lock synchronously, which would stall the other
    // client's commit in this one process; there the two sends share a client, whose transactions queue.
    const other = POSTGRES_SERVER_URL ? createDb(database.database.url) : db;
    try {
      const at = new Date(NOW.getTime() + 120_000);
      const subject = { kind: "operation" as const, id: deleteOperation.id };
      const results = await Promise.all([sendDeprecationNotices(db, { subject, now: at }), sendDeprecationNotices(other, { subject, now: at })]);
      expect(results).toContainEqual({ sent: true, clientCount: 1 });
      expect(results).toContainEqual({ sent: false, reason: "already-sent" });
      const sent = await db.notification.findMany({ where: { createdAt: at } });
      expect(sent.map((notification) => [notification.clientId, notification.title])).toEqual([
        [clients.bob, "DELETE /v2/orders/{id} of Orders API v2 is deprecated"],
      ]);
      expect(sent[0]!.body).toContain("- DELETE /v2/orders/{id}: 2 calls, last at 2026-11-19 12:00 UTC");
      expect(sent[0]!.body).toContain("No sunset date is set yet");
      expect(sent[0]!.link).toMatch(/\/apis\/orders$/);
    } finally {
      if (other !== db) await other.$disconnect();
    }
  });

  it("records a notice to nobody when nobody called, and says so for an unknown subject", async () => {
    const api = await db.api.findUniqueOrThrow({ where: { slug: "orders" } });
    const quiet = await db.apiOperationDeprecation.create({
      data: {
        id: newId("apd"),
        apiVersionId: (await db.apiVersion.findFirstOrThrow({ where: { apiId: api.id, version: "v2" } })).id,
        method: "PATCH",
        path: "/v2/orders/{id}",
        deprecatedAt: NOW,
      },
    });
    expect(await sendDeprecationNotices(db, { subject: { kind: "operation", id: quiet.id }, now: NOW })).toEqual({ sent: true, clientCount: 0 });
    expect(await sendDeprecationNotices(db, { subject: { kind: "version", id: "apv_missing" }, now: NOW })).toEqual({ sent: false, reason: "unknown-subject" });
  });
});
