import "server-only";
import type { PostgresConnection } from "./postgres";
import { REQUEST_LOG_COLUMNS, requestLogValues } from "./request-log-columns";
import type { RequestLogInsert } from "./request-log-entry";
import { postgresTime } from "./time";

/** The PostgreSQL types of `REQUEST_LOG_COLUMNS`, in order. */
const COLUMN_TYPES = [
  "timestamp(3)",
  "text",
  "text",
  "text",
  "text",
  "text",
  "integer",
  "double precision",
  "text",
  "text",
  "text",
  "text",
  "integer",
  "integer",
];

const INSERT = `INSERT INTO "RequestLog" (${REQUEST_LOG_COLUMNS}) SELECT * FROM unnest(${COLUMN_TYPES.map((type, index) => `$${index + 1}::${type}[]`).join(", ")})`;

/**
 * The request log's inserts into PostgreSQL through pg, one statement per batch
 * with one array per column (`unnest`): one parameter per column however many
 * rows, where a multi-row VALUES list through Prisma had one per column and row
 * and kept Prisma's client and its query compiler in the worker's memory.
 */
export function createPostgresRequestLogInsert(connection: PostgresConnection): RequestLogInsert {
  return async (batch) => {
    const columns: unknown[][] = COLUMN_TYPES.map(() => []);
    for (const entry of batch) {
      const values = requestLogValues(entry);
      if (!values) continue;
      const [at, ...rest] = values;
      columns[0]!.push(postgresTime(at));
      rest.forEach((value, index) => columns[index + 1]!.push(value));
    }
    if (columns[0]!.length === 0) return;
    await connection.query(INSERT, columns);
  };
}
