import "server-only";
import { sqlitePath } from "../config";
import type { RequestLogEntry } from "./request-log-entry";
import { createPostgresRequestLogInsert } from "./request-log-postgres";
import { createSqliteRequestLogInsert } from "./request-log-sqlite";

/**
 * The request log's insert for `databaseUrl`'s dialect, through the database's
 * own driver: used by the worker thread, which gives way to the serving thread's
 * waiting writers (`writeTurns`), and by this thread where there is none.
 */
export function createRequestLogInsert(databaseUrl: string, writeTurns?: Int32Array): (batch: readonly RequestLogEntry[]) => Promise<void> {
  if (!databaseUrl.startsWith("file:")) return createPostgresRequestLogInsert(databaseUrl);
  const insert = createSqliteRequestLogInsert(sqlitePath(databaseUrl), writeTurns);
  return async (batch) => insert(batch);
}
