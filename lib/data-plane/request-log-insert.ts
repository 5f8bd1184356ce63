import "server-only";
import { openDriver } from "./connection";
import type { RequestLogInsert } from "./request-log-entry";
import { createPostgresRequestLogInsert } from "./request-log-postgres";
import { createSqliteRequestLogInsert } from "./request-log-sqlite";

/**
 * The request log's insert for `databaseUrl`'s dialect, on a connection of its own
 * (on PostgreSQL a pool of one): used by the worker thread, which gives way to the
 * serving thread's waiting writers (`writeTurns`), and by that thread where there is
 * no worker.
 */
export function createRequestLogInsert(databaseUrl: string, writeTurns?: Int32Array): RequestLogInsert {
  const connection = openDriver(databaseUrl, { poolSize: 1, batchWriter: true });
  return connection.dialect === "sqlite" ? createSqliteRequestLogInsert(connection, writeTurns) : createPostgresRequestLogInsert(connection);
}
