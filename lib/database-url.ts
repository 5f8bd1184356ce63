import { resolve } from "node:path";

/**
 * Connections each process's gateway opens to PostgreSQL: a list request whose client
 * changed something makes two or three round trips, and with 32 requests in flight
 * 10 connections queued them (docs/decisions/007-gateway-notification-queries.md, "The PostgreSQL pool").
 */
export const DEFAULT_DATABASE_POOL_SIZE = 20;

/** The file path inside a `file:` URL, resolved against the working directory. */
export function sqlitePath(databaseUrl: string): string {
  return resolve(/*turbopackIgnore: true*/ databaseUrl.replace(/^file:/, "").split("?")[0] ?? "");
}
