import "server-only";
import Database from "better-sqlite3";
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
 * A batch is committed in slices of `ROWS_PER_COMMIT`.
 */
export function createSqliteRequestLogInsert(path: string): (batch: readonly RequestLogEntry[]) => void {
  const database = new Database(path, { timeout: 10_000 });
  database.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  const insert = database.prepare(`INSERT INTO "RequestLog" (${REQUEST_LOG_COLUMNS}) VALUES (${REQUEST_LOG_COLUMNS.split(",").map(() => "?").join(", ")})`);
  const commit = database.transaction((slice: readonly RequestLogEntry[]) => {
    for (const entry of slice) {
      const values = requestLogValues(entry);
      if (!values) continue;
      const [at, ...rest] = values;
      insert.run(at.toISOString().replace("Z", "+00:00"), ...rest);
    }
  });
  return (batch) => {
    for (let start = 0; start < batch.length; start += ROWS_PER_COMMIT) commit(batch.slice(start, start + ROWS_PER_COMMIT));
  };
}
