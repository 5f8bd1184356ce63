import "server-only";
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/sqlite/client";

/** A gateway request once answered: one access line, and one usage row when its environment is known. */
export type RequestLogEntry = {
  at: Date;
  requestId: string;
  method: string;
  /** the path asked for */
  path: string;
  /** the route template that served it, when one matched */
  route: string | null;
  status: number;
  latencyMs: number;
  clientId: string | null;
  /** set once the path named a known environment; only then does the request count in usage */
  environment: string | null;
  api: string | null;
};

/** One multi-row INSERT: a fraction of what createMany costs per row, which matters at gateway rates. */
export async function insertRequestLog(db: Db, batch: readonly RequestLogEntry[]): Promise<void> {
  const rows = batch.flatMap((entry) =>
    entry.environment === null
      ? []
      : [
          Prisma.sql`(${entry.at}, ${entry.environment}, ${entry.api ?? ""}, ${entry.clientId}, ${entry.method}, ${entry.route ?? "(unmatched)"}, ${entry.status}, ${entry.latencyMs}, ${entry.requestId})`,
        ],
  );
  if (rows.length === 0) return;
  await db.$executeRaw`INSERT INTO "RequestLog" ("at", "environment", "api", "clientId", "method", "route", "status", "latencyMs", "requestId") VALUES ${Prisma.join(rows)}`;
}
