import "server-only";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { SQLITE_SYNCHRONOUS } from "../sqlite-pragmas";
import type { QueryListener } from "./query-listener";
import { askForWriteLock, stopAskingForWriteLock } from "./sqlite-write-turns";

/** Times in the text form Prisma's SQLite adapter stores and compares. */
export function sqliteTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

/**
 * The stored text form as ISO 8601 in UTC. Prisma's adapter and the driver's
 * writers store `2026-11-24T09:30:00.000+00:00`, which needs only its zone
 * replaced; anything else a tool may have written goes through Date. In SQL,
 * strftime cost a third of a notification page's read.
 */
export function sqliteIsoTime(stored: string): string {
  return stored.length === 29 && stored.endsWith("+00:00") ? `${stored.slice(0, 23)}Z` : new Date(stored).toISOString();
}

const BUSY_DEADLINE_MS = 10_000;

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith("SQLITE_BUSY");
}

/**
 * Runs `work` now. While another connection holds the write lock (the request-log
 * worker commits a batch, another process writes) it asks the worker to commit
 * early (`sqlite-write-turns.ts`) and tries again, first on the event loop's next
 * turn, then after pauses that grow to 8 ms. SQLite's own busy handler would
 * sleep on the event loop instead, stalling every request in flight for as long
 * as the lock is held.
 */
async function whenNotBusy<T>(work: () => T): Promise<T> {
  try {
    return work();
  } catch (error) {
    if (!isBusy(error)) throw error;
  }
  const deadline = Date.now() + BUSY_DEADLINE_MS;
  askForWriteLock();
  try {
    for (let pauseMs = 0; ; pauseMs = Math.min(Math.max(pauseMs * 2, 1), 8)) {
      await (pauseMs === 0 ? nextTurn() : sleep(pauseMs));
      try {
        return work();
      } catch (error) {
        if (!isBusy(error) || Date.now() > deadline) throw error;
      }
    }
  } finally {
    stopAskingForWriteLock();
  }
}

/** How a statement returns rows: as arrays (better-sqlite3's `raw`, cheaper on hot paths) or as objects. */
export type RowShape = "arrays" | "objects";

/** One better-sqlite3 connection to Gatehouse's file, for the gateway's queries. */
export type SqliteConnection = {
  dialect: "sqlite";
  /** `sql` prepared once per shape; `params` only reach the query listener. */
  statement(sql: string, params: readonly unknown[], shape?: RowShape): Database.Statement;
  /** The rows `sql` reads with `params`, once no other connection holds the write lock. */
  all<Row>(sql: string, params: readonly unknown[], shape?: RowShape): Promise<Row[]>;
  get<Row>(sql: string, params: readonly unknown[], shape?: RowShape): Promise<Row | undefined>;
  /** Runs a writing statement once the write lock is free; the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
  /** Runs `work` as one transaction that takes the write lock first, waiting for it like `run`. */
  transaction<T>(work: () => T): Promise<T>;
  close(): Promise<void>;
};

/**
 * Opens the file the way Gatehouse keeps it (`lib/sqlite-pragmas.ts`). The
 * connection never checkpoints the write-ahead log itself: the request-log
 * worker's connection, which writes as often, does so off the event loop.
 */
export function openSqlite(path: string, onQuery?: QueryListener): SqliteConnection {
  const database = new Database(path, { timeout: 0 });
  database.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  database.pragma("wal_autocheckpoint = 0");
  const statements = { arrays: new Map<string, Database.Statement>(), objects: new Map<string, Database.Statement>() };
  function statement(sql: string, params: readonly unknown[], shape: RowShape = "objects"): Database.Statement {
    onQuery?.(sql, [...params]);
    let prepared = statements[shape].get(sql);
    if (!prepared) {
      prepared = database.prepare(sql);
      if (prepared.reader && shape === "arrays") prepared.raw(true);
      statements[shape].set(sql, prepared);
    }
    return prepared;
  }
  return {
    dialect: "sqlite",
    statement,
    all: (sql, params, shape) => whenNotBusy(() => statement(sql, params, shape).all(...params) as never[]),
    get: (sql, params, shape) => whenNotBusy(() => statement(sql, params, shape).get(...params) as never),
    run: (sql, params) => whenNotBusy(() => statement(sql, params).run(...params).changes),
    transaction(work) {
      return whenNotBusy(() => database.transaction(work).immediate());
    },
    async close() {
      database.close();
    },
  };
}
