import "server-only";
import type { Logger } from "pino";
import type { Db } from "../db";

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
  const batchSize = input.batchSize ?? 500;
  let buffer: RequestLogEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  async function write(batch: RequestLogEntry[]): Promise<void> {
    try {
      await db.requestLog.createMany({ data: batch });
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
