import "server-only";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import type { QueryListener } from "./query-listener";
import { SQLITE_SYNCHRONOUS } from "./sqlite-pragmas";
import { askForWriteLock, stopAskingForWriteLock } from "./write-turns";

/** How long a statement waits for the write lock at most, as Prisma's connections do (`lib/db.ts`). */
const BUSY_DEADLINE_MS = 10_000;

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith("SQLITE_BUSY");
}

/** Tries `work` again, first on the event loop's next turn, then after pauses that grow to 8 ms, until it is not refused the lock. */
async function retryWhileBusy<T>(work: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_DEADLINE_MS;
  for (let pauseMs = 0; ; pauseMs = Math.min(Math.max(pauseMs * 2, 1), 8)) {
    await (pauseMs === 0 ? nextTurn() : sleep(pauseMs));
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
    }
  }
}

/**
 * The one busy policy of every connection the data plane opens, the serving thread's
 * and the request log's: no busy timeout, and a statement refused the lock (another
 * connection writes) is tried again on a later turn of the thread's event loop, for
 * BUSY_DEADLINE_MS at most. SQLite's own busy handler would sleep the thread instead,
 * stalling every request in flight on the serving thread, where the request log is
 * written too when it has no worker. A connection that asks for turns counts itself
 * among the waiting writers meanwhile, so that the batch writer gives way (`write-turns.ts`).
 */
function busyPolicy(asksForTurns: boolean) {
  return async function whenNotBusy<T>(work: () => T): Promise<T> {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
    if (!asksForTurns) return retryWhileBusy(work);
    askForWriteLock();
    try {
      return await retryWhileBusy(work);
    } finally {
      stopAskingForWriteLock();
    }
  };
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

export type SqliteOptions = {
  onQuery?: QueryListener;
  /**
   * The connection of a writer that commits rows in batches beside the serving thread's
   * (the request log): it checkpoints the write-ahead log, which the serving connection
   * leaves to it so that, from the batch writer's worker, none runs on the serving
   * thread; it asks for no turns, being the one that gives way to those who do; and it
   * keeps a page cache of `BATCH_WRITER_CACHE_KIB`.
   */
  batchWriter?: boolean;
};

/**
 * The batch writer's page cache, in KiB: SQLite's own default. better-sqlite3 builds SQLite
 * with 16,000 KiB, which an append-only writer fills with pages it never reads again, as
 * the request log grows: after 320,000 rows a writer held 96 MB with it and 81 MB with this
 * one, and stored a row for as little CPU (decision 039).
 */
export const BATCH_WRITER_CACHE_KIB = 2_000;

/** Opens the file the way Gatehouse keeps it (`sqlite-pragmas.ts`). */
export function openSqlite(path: string, { onQuery, batchWriter = false }: SqliteOptions = {}): SqliteConnection {
  const database = new Database(path, { timeout: 0 });
  database.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  if (batchWriter) database.pragma(`cache_size = -${BATCH_WRITER_CACHE_KIB}`);
  else database.pragma("wal_autocheckpoint = 0");
  const whenNotBusy = busyPolicy(!batchWriter);
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
