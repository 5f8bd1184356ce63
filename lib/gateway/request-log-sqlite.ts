import "server-only";
import Database from "better-sqlite3";
import { giveWayToWaitingWriters, writersAreWaiting } from "../driver/sqlite-write-turns";
import { SQLITE_SYNCHRONOUS } from "../sqlite-pragmas";
import { REQUEST_LOG_COLUMNS, type RequestLogEntry, requestLogValues } from "./request-log-entry";

/**
 * So that the write lock a notification update waits for is held for a
 * millisecond rather than the ten 2,000 rows take; a commit
 * costs little in WAL mode, which syncs at checkpoints only.
 */
const ROWS_PER_COMMIT = 200;

/**
 * The request log's inserts into SQLite through SQLite's own driver, with one
 * prepared statement: Prisma's raw-query path cost twice what SQLite itself
 * does per row, about 9 µs of 13, which at gateway rates took a quarter of a
 * core (docs/decisions/006). Times are in the text form Prisma's SQLite adapter
 * stores and reads.
 * A batch is committed in slices of `ROWS_PER_COMMIT`. In the worker thread,
 * `writeTurns` is shared with the serving thread (`sqlite-write-turns.ts`): a
 * slice ends as soon as a writer there waits for the lock, and the next begins
 * once none does.
 */
export function createSqliteRequestLogInsert(path: string, writeTurns?: Int32Array): (batch: readonly RequestLogEntry[]) => void {
  const database = new Database(path, { timeout: 10_000 });
  database.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  const insert = database.prepare(`INSERT INTO "RequestLog" (${REQUEST_LOG_COLUMNS}) VALUES (${REQUEST_LOG_COLUMNS.split(",").map(() => "?").join(", ")})`);
  /** Inserts rows from `start` on, and returns where it stopped. */
  const commit = database.transaction((batch: readonly RequestLogEntry[], start: number): number => {
    const end = Math.min(batch.length, start + ROWS_PER_COMMIT);
    for (let index = start; index < end; index++) {
      if (writeTurns && index > start && writersAreWaiting(writeTurns)) return index;
      const values = requestLogValues(batch[index]!);
      if (!values) continue;
      const [at, ...rest] = values;
      insert.run(at.toISOString().replace("Z", "+00:00"), ...rest);
    }
    return end;
  });
  return (batch) => {
    for (let start = 0; start < batch.length; ) {
      if (writeTurns) giveWayToWaitingWriters(writeTurns);
      start = commit(batch, start);
    }
  };
}
