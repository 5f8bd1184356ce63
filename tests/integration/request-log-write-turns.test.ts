import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { sqlitePath } from "../../lib/config";
import { askForWriteLock, stopAskingForWriteLock, writeTurns } from "../../lib/driver/sqlite-write-turns";
import type { RequestLogEntry } from "../../lib/gateway/request-log-entry";
import { createSqliteRequestLogInsert } from "../../lib/gateway/request-log-sqlite";
import { POSTGRES_SERVER_URL, type TestDatabase } from "../support/databases";
import { migratedDatabase } from "../support/db";

let db: Db;
let database: TestDatabase;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, database, close } = await migratedDatabase());
});

afterAll(async () => {
  await close?.();
});

function entries(prefix: string, count: number): RequestLogEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    at: new Date(),
    requestId: `${prefix}_${index}`,
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

async function stored(prefix: string): Promise<number> {
  return db.requestLog.count({ where: { requestId: { startsWith: `${prefix}_` } } });
}

describe.skipIf(POSTGRES_SERVER_URL !== undefined)("the request-log worker's inserts into SQLite", () => {
  it("store every row of a batch larger than one commit", async () => {
    const insert = createSqliteRequestLogInsert(sqlitePath(database.url), writeTurns);
    insert(entries("calm", 450));
    expect(await stored("calm")).toBe(450);
  });

  it("store every row, and return, while a writer waits for the lock throughout", async () => {
    const insert = createSqliteRequestLogInsert(sqlitePath(database.url), writeTurns);
    askForWriteLock();
    try {
      insert(entries("asked", 5));
    } finally {
      stopAskingForWriteLock();
    }
    expect(await stored("asked")).toBe(5);
  });
});
