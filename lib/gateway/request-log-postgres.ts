import "server-only";
import pg from "pg";
import { REQUEST_LOG_COLUMNS, type RequestLogEntry, requestLogValues } from "./request-log-entry";

/** The PostgreSQL types of `REQUEST_LOG_COLUMNS`, in order. */
const COLUMN_TYPES = ["timestamp(3)", "text", "text", "text", "text", "text", "integer", "double precision", "text", "text"];

const INSERT = `INSERT INTO "RequestLog" (${REQUEST_LOG_COLUMNS}) SELECT * FROM unnest(${COLUMN_TYPES.map((type, index) => `$${index + 1}::${type}[]`).join(", ")})`;

/**
 * The request log's inserts into PostgreSQL through pg, one statement per batch
 * with one array per column (`unnest`): ten parameters however many rows, where
 * a multi-row VALUES list through Prisma had ten per row and kept Prisma's client
 * and its query compiler in the worker's memory.
 */
export function createPostgresRequestLogInsert(connectionString: string): (batch: readonly RequestLogEntry[]) => Promise<void> {
  const pool = new pg.Pool({ connectionString, max: 1 });
  // As in lib/driver/postgres.ts: an idle connection the server ended is replaced, not fatal.
  pool.on("error", () => undefined);
  return async (batch) => {
    const columns: unknown[][] = COLUMN_TYPES.map(() => []);
    for (const entry of batch) {
      const values = requestLogValues(entry);
      if (!values) continue;
      const [at, ...rest] = values;
      // timestamp(3) holds UTC without a zone, as Prisma writes it.
      columns[0]!.push(at.toISOString().slice(0, -1));
      rest.forEach((value, index) => columns[index + 1]!.push(value));
    }
    if (columns[0]!.length === 0) return;
    await pool.query({ name: "request_log_insert", text: INSERT, values: columns });
  };
}
