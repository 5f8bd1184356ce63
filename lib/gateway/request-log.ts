import "server-only";
import type { Logger } from "pino";
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/sqlite/client";

export type RequestLogEntry = {
  at: Date;
  environment: string;
  api: string;
  clientId: string | null;
  method: string;
  route: string;
  status: number;
  latencyMs: number;
  requestId: string;
};

export type RequestRecorder = { record(entry: RequestLogEntry): void; flush(): Promise<void> };

const MAX_BUFFERED = 20_000;

/** Request log rows are buffered and written in batches, off the request path. */
export function createRequestRecorder(input: { db: Db; log: Logger; flushMs?: number; batchSize?: number }): RequestRecorder {
  const { db, log } = input;
  // 9 parameters a row: 4,500 per batch, well under SQLite's and PostgreSQL's limits.
  const batchSize = input.batchSize ?? 500;
  let buffer: RequestLogEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  /** One multi-row INSERT: a fraction of what createMany costs per row, which matters at gateway rates. */
  async function write(batch: RequestLogEntry[]): Promise<void> {
    const rows = batch.map(
      (entry) =>
        Prisma.sql`(${entry.at}, ${entry.environment}, ${entry.api}, ${entry.clientId}, ${entry.method}, ${entry.route}, ${entry.status}, ${entry.latencyMs}, ${entry.requestId})`,
    );
    try {
      await db.$executeRaw`INSERT INTO "RequestLog" ("at", "environment", "api", "clientId", "method", "route", "status", "latencyMs", "requestId") VALUES ${Prisma.join(rows)}`;
    } catch (error) {
      log.warn({ err: error, rows: batch.length }, "could not write the request log");
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = buffer;
    buffer = [];
    if (batch.length > 0) writing = writing.then(() => write(batch));
    return writing;
  }

  return {
    record(entry) {
      if (buffer.length >= MAX_BUFFERED) buffer.shift();
      buffer.push(entry);
      if (buffer.length >= batchSize) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), input.flushMs ?? 1_000);
        timer.unref();
      }
    },
    flush,
  };
}
