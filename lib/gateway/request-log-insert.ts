import "server-only";
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/sqlite/client";
import { REQUEST_LOG_COLUMNS, type RequestLogEntry, requestLogValues } from "./request-log-entry";

/** One multi-row INSERT: a fraction of what createMany costs per row, which matters at gateway rates. */
export async function insertRequestLog(db: Db, batch: readonly RequestLogEntry[]): Promise<void> {
  const rows = batch.flatMap((entry) => {
    const values = requestLogValues(entry);
    return values ? [Prisma.sql`(${Prisma.join(values)})`] : [];
  });
  if (rows.length === 0) return;
  await db.$executeRaw`INSERT INTO "RequestLog" (${Prisma.raw(REQUEST_LOG_COLUMNS)}) VALUES ${Prisma.join(rows)}`;
}
