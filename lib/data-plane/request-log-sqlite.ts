import "server-only";
import { REQUEST_LOG_COLUMNS, requestLogValues } from "./request-log-columns";
import { REQUEST_LOG_BATCH_ROWS, type RequestLogEntry, type RequestLogInsert } from "./request-log-entry";
import type { SqliteConnection } from "./sqlite";
import { sqliteTime } from "./time";
import { giveWayToWaitingWriters, writersAreWaiting } from "./write-turns";

/**
 * So that the write lock a notification update waits for is held for a couple of
 * milliseconds rather than the ten 2,000 rows take. A commit costs little in WAL mode, which
 * syncs at checkpoints only, but each writes every page it changed, and the index on
 * (clientId, at) changes a page per client: a batch of 250 cut in two commits, 200 rows and
 * 50, took about a quarter more CPU per row than one commit of 250 (decision 082).
 */
const ROWS_PER_COMMIT = REQUEST_LOG_BATCH_ROWS;

const INSERT = `INSERT INTO "RequestLog" (${REQUEST_LOG_COLUMNS}) VALUES (${REQUEST_LOG_COLUMNS.split(",")
  .map(() => "?")
  .join(", ")})`;

/**
 * The request log's inserts into SQLite through SQLite's own driver, with one
 * prepared statement: Prisma's raw-query path cost twice what SQLite itself
 * does per row, about 9 µs of 13, which at gateway rates took a quarter of a
 * core (docs/decisions/006).
 * A batch is committed in slices of `ROWS_PER_COMMIT`. In the worker thread,
 * `writeTurns` is shared with the serving thread (`write-turns.ts`): a
 * slice ends as soon as a writer there waits for the lock, and the next begins
 * once none does.
 */
export function createSqliteRequestLogInsert(connection: SqliteConnection, writeTurns?: Int32Array): RequestLogInsert {
  const insert = connection.statement(INSERT, []);
  /** Inserts rows from `start` on, and returns where it stopped. */
  const insertFrom = (batch: readonly RequestLogEntry[], start: number): number => {
    const end = Math.min(batch.length, start + ROWS_PER_COMMIT);
    for (let index = start; index < end; index++) {
      if (writeTurns && index > start && writersAreWaiting(writeTurns)) return index;
      const values = requestLogValues(batch[index]!);
      if (!values) continue;
      const [at, ...rest] = values;
      insert.run(sqliteTime(at), ...rest);
    }
    return end;
  };
  return async (batch) => {
    for (let start = 0; start < batch.length; ) {
      if (writeTurns) giveWayToWaitingWriters(writeTurns);
      start = await connection.transaction(() => insertFrom(batch, start));
    }
  };
}
