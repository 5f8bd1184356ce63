// A worker thread that writes the gateway's access lines and request log rows,
// so that formatting the lines and SQLite's synchronous inserts run beside the
// event loop instead of on it.
import { parentPort, workerData } from "node:worker_threads";
import pino from "pino";
import type { RequestLogEntry } from "../data-plane/request-log-entry";
import { createRequestLogInsert } from "../data-plane/request-log-insert";
import { createAccessLog } from "../access-log";
import { writeAccessLines } from "./access-lines";

const { databaseUrl, writeTurns, logLevel } = workerData as { databaseUrl: string; writeTurns: Int32Array; logLevel: string };

/**
 * Batches arrive 250 rows at a time and are written together once this many rows have
 * arrived, or `GATHER_MS` after the first: SQLite stored a row in 8–12 µs in commits of
 * 1,000 rows against 11–15 µs in commits of 200 (decision 039).
 */
const GATHER_ROWS = 1_000;
const GATHER_MS = 200;

// Through the database's driver: Prisma's client and its query compiler would cost the worker some 60 MB.
const insert = createRequestLogInsert(databaseUrl, writeTurns);
// One write per line: a line is then whole on the output even when the main thread writes to it too.
const accessLog = createAccessLog(pino.destination({ dest: 1, sync: true }), logLevel);
let writing = Promise.resolve();
let gathered: RequestLogEntry[][] = [];
let gatheredRows = 0;
let timer: NodeJS.Timeout | undefined;

/** Writes the gathered batches in one insert and answers for each, in the order they came. */
function writeGathered(): void {
  clearTimeout(timer);
  timer = undefined;
  const batches = gathered;
  gathered = [];
  gatheredRows = 0;
  const answer = (message: (rows: number) => object) => {
    for (const batch of batches) parentPort!.postMessage(message(batch.length));
  };
  writing = writing.then(() =>
    insert(batches.flat()).then(
      () => answer((rows) => ({ written: rows })),
      (error: unknown) => answer((rows) => ({ failed: rows, reason: error instanceof Error ? error.message : String(error) })),
    ),
  );
}

parentPort!.on("message", (batch: RequestLogEntry[]) => {
  writeAccessLines(accessLog, batch);
  gathered.push(batch);
  gatheredRows += batch.length;
  if (gatheredRows >= GATHER_ROWS) writeGathered();
  else timer ??= setTimeout(writeGathered, GATHER_MS);
});
parentPort!.postMessage({ ready: true });
