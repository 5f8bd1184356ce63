import BetterSqlite from "better-sqlite3";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { sqlitePath } from "../../lib/database-url";
import type { RequestLogEntry, RequestLogInsert } from "../../lib/data-plane/request-log-entry";
import { createRequestLogInsert } from "../../lib/data-plane/request-log-insert";
import { askForWriteLock, stopAskingForWriteLock, writeTurns } from "../../lib/data-plane/write-turns";
import { POSTGRES_SERVER_URL, type TestDatabase } from "../../lib/database/test-databases";
import { migratedDatabase } from "../../lib/database/migrated-database";
import { createRequestRecorder } from "../../lib/gateway/request-log";

let db: Db;
let database: TestDatabase;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, database, close } = await migratedDatabase());
});

afterAll(async () => {
  await close?.();
});

/** `count` answered requests of one client, their request ids `{prefix}_{index}`. */
function entries(prefix: string, count: number): RequestLogEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    at: new Date(),
    requestId: `${prefix}_${index}`,
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    method: "GET",
    path: "/gw/sso-qa/notifications/v1/notifications",
    route: "/v1/notifications",
    status: 200,
    latencyMs: 1,
    clientId: "gci_turns",
    environment: "sso-qa",
    api: "notifications",
    problem: null,
  }));
}

/**
 * Inserts `count` rows and answers how many of them another connection saw
 * committed while the insert was writing the last one: the last row's time is
 * read as that row is written, and reading it counts what is committed.
 */
async function committedBeforeLastRow(insert: RequestLogInsert, prefix: string, count: number): Promise<number> {
  const reader = new BetterSqlite(sqlitePath(database.url), { readonly: true });
  const countCommitted = reader.prepare(`SELECT count(*) FROM "RequestLog" WHERE "requestId" LIKE ?`).pluck();
  let committed = -1;
  const batch = entries(prefix, count);
  const last = batch.pop()!;
  batch.push({
    ...last,
    get at() {
      committed = countCommitted.get(`${prefix}_%`) as number;
      return last.at;
    },
  });
  try {
    await insert(batch);
  } finally {
    reader.close();
  }
  return committed;
}

async function stored(prefix: string): Promise<number> {
  return db.requestLog.count({ where: { requestId: { startsWith: `${prefix}_` } } });
}

describe.skipIf(POSTGRES_SERVER_URL !== undefined)("the request-log worker's inserts into SQLite", () => {
  it("store every row of a batch larger than one commit", async () => {
    const insert = createRequestLogInsert(database.url, writeTurns);
    await insert(entries("calm", 450));
    expect(await stored("calm")).toBe(450);
  });

  it("commit a small batch at once while no writer waits", async () => {
    const insert = createRequestLogInsert(database.url, writeTurns);
    expect(await committedBeforeLastRow(insert, "whole", 5)).toBe(0);
    expect(await stored("whole")).toBe(5);
  });

  it("commit each row before writing the next, store every row, and return, while a writer waits for the lock throughout", async () => {
    const insert = createRequestLogInsert(database.url, writeTurns);
    askForWriteLock();
    try {
      // Each row is committed before the next is written, so the waiting writer gets the lock between any two.
      expect(await committedBeforeLastRow(insert, "asked", 5)).toBe(4);
    } finally {
      stopAskingForWriteLock();
    }
    expect(await stored("asked")).toBe(5);
  });
});

// Only PostgreSQL keeps a writer waiting without holding its thread: SQLite's driver blocks until its busy timeout.
describe.runIf(POSTGRES_SERVER_URL !== undefined)("the request log while the database does not answer", () => {
  it("holds at most its bound of rows, drops the batches past it and counts them in warnings, and writes what it held once the database answers", async () => {
    const warnings: Record<string, unknown>[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => warnings.push(JSON.parse(line)) });
    const recorder = createRequestRecorder({ log, accessLog: pino({ level: "silent" }), databaseUrl: database.url, batchSize: 10, maxUnanswered: 20 });
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query(`LOCK TABLE "RequestLog" IN ACCESS EXCLUSIVE MODE`);
      for (const entry of entries("stalled", 40)) recorder.record(entry);
      expect(warnings).toEqual([
        expect.objectContaining({ msg: "the database is not keeping up with the request log; rows and access lines dropped", rows: 10, unanswered: 20 }),
      ]);
      await locker.query("COMMIT");
    } finally {
      await locker.end();
    }
    await recorder.flush();
    expect(await stored("stalled")).toBe(20);

    // The batch dropped after the first warning is told once the writer has caught up.
    expect(warnings).toEqual([expect.anything(), expect.objectContaining({ rows: 10, unanswered: 0 })]);

    for (const entry of entries("answered", 10)) recorder.record(entry);
    await recorder.flush();
    expect(await stored("answered")).toBe(10);
    expect(warnings).toHaveLength(2);
  });
});
