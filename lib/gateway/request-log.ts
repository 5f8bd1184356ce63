import "server-only";
import type { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { REQUEST_LOG_BATCH_ROWS, type RequestLogEntry, type RequestLogInsert } from "../data-plane/request-log-entry";
import { createRequestLogInsert } from "../data-plane/request-log-insert";
import { writeTurns } from "../data-plane/write-turns";
import { inServerBuild } from "../runtime/server-build";
import { startThread } from "../runtime/threads";
import { writeAccessLines } from "./access-lines";

export type RequestRecorder = { record(entry: RequestLogEntry): void; flush(): Promise<void> };

/**
 * Rows handed to the writer and not yet answered for, at most: what a database that
 * stops answering (a lock, a stalled disk) can make the process hold. Past it, new
 * batches are dropped, and said so at most every `DROP_WARNING_MS` and once more when
 * the writer has caught up.
 */
const MAX_UNANSWERED = 20_000;
const DROP_WARNING_MS = 10_000;

type Writer = (batch: RequestLogEntry[]) => Promise<void>;

/**
 * In the compiled server (`npm start`, `npm run start:gateway`) a worker thread
 * writes the batches; from source (`next dev`, a gateway built inside a test), or
 * where the worker fails, they are written in this thread, one batch after the
 * other. A write resolves once the worker has answered for its batch, and the
 * worker keeps the process alive while it has any.
 */
function createWriter(log: Logger, accessLog: Logger, databaseUrl: string): Writer {
  let insert: RequestLogInsert | undefined;
  let writingInProcess: Promise<unknown> = Promise.resolve();
  const inProcess: Writer = (batch) => {
    const written = writingInProcess.then(() => {
      writeAccessLines(accessLog, batch);
      insert ??= createRequestLogInsert(databaseUrl);
      return insert(batch);
    });
    writingInProcess = written.catch(() => undefined);
    return written;
  };
  if (!inServerBuild) return inProcess;
  let worker: Worker | undefined = startThread("lib/gateway/request-log-worker.ts", { workerData: { databaseUrl, writeTurns, logLevel: accessLog.level } });
  worker.unref();
  // The worker answers each batch in the order it was sent.
  const answered: (() => void)[] = [];
  const settle = () => {
    answered.shift()?.();
    if (answered.length === 0) worker?.unref();
  };
  worker.on("message", (message: { ready?: boolean; written?: number; failed?: number; reason?: string }) => {
    if (message.ready) log.debug("request log worker ready");
    if (message.failed) log.warn({ rows: message.failed, reason: message.reason }, "could not write the request log");
    if (message.written !== undefined || message.failed !== undefined) settle();
  });
  worker.on("error", (error) => {
    log.warn({ err: error }, "request log worker failed; writing in process");
    worker = undefined;
    while (answered.length > 0) settle();
  });
  return (batch) => {
    if (!worker) return inProcess(batch);
    const running = worker;
    return new Promise<void>((resolve) => {
      answered.push(resolve);
      running.ref();
      running.postMessage(batch);
    });
  };
}

/**
 * Answered requests are buffered and written in batches, off the request path:
 * their access lines (within `flushMs`, 1 s by default) and their usage rows.
 */
export function createRequestRecorder(input: {
  log: Logger;
  accessLog: Logger;
  databaseUrl: string;
  flushMs?: number;
  batchSize?: number;
  maxUnanswered?: number;
}): RequestRecorder {
  const { log } = input;
  // Handing the worker 2,000 rows at once held this thread for 1.2-1.4 ms per message, 250 for
  // 0.13-0.15 ms; with 250 the full server held 15-20 MB less under the mix and served as many
  // requests (decision 007, "The request log"). SQLite commits a batch at once unless a writer
  // waits (`lib/data-plane/request-log-sqlite.ts`), PostgreSQL in one statement of one array per column.
  const batchSize = input.batchSize ?? REQUEST_LOG_BATCH_ROWS;
  const write = createWriter(log, input.accessLog, input.databaseUrl);
  let buffer: RequestLogEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  const maxUnanswered = input.maxUnanswered ?? MAX_UNANSWERED;
  let writing: Promise<void> = Promise.resolve();
  let unanswered = 0;
  let dropped = 0;
  let warnedAt = Number.NEGATIVE_INFINITY;

  function reportDropped(): void {
    warnedAt = Date.now();
    log.warn({ rows: dropped, unanswered }, "the database is not keeping up with the request log; rows and access lines dropped");
    dropped = 0;
  }

  function drop(rows: number): void {
    dropped += rows;
    if (Date.now() - warnedAt >= DROP_WARNING_MS) reportDropped();
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = buffer;
    buffer = [];
    const rows = batch.length;
    if (rows === 0) return writing;
    if (unanswered + rows > maxUnanswered) {
      drop(rows);
      return writing;
    }
    unanswered += rows;
    // Handed over at once, and not held here until the worker answers: a batch kept on this
    // thread while the one before it is committed outlives the young generation (decision 040).
    const written = write(batch)
      .catch((error: unknown) => log.warn({ err: error, rows }, "could not write the request log"))
      .finally(() => {
        unanswered -= rows;
        // Once the writer has caught up, the rows dropped since the last warning are told too.
        if (unanswered === 0 && dropped > 0) reportDropped();
      });
    writing = Promise.all([writing, written]).then(() => undefined);
    return writing;
  }

  return {
    record(entry) {
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
