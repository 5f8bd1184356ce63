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

// Through the database's driver: Prisma's client and its query compiler would cost the worker some 60 MB.
const insert = createRequestLogInsert(databaseUrl, writeTurns);
// One write per line: a line is then whole on the output even when the main thread writes to it too.
const accessLog = createAccessLog(pino.destination({ dest: 1, sync: true }), logLevel);
let writing = Promise.resolve();

parentPort!.on("message", (batch: RequestLogEntry[]) => {
  writeAccessLines(accessLog, batch);
  writing = writing.then(() =>
    insert(batch).then(
      () => parentPort!.postMessage({ written: batch.length }),
      (error: unknown) => parentPort!.postMessage({ failed: batch.length, reason: error instanceof Error ? error.message : String(error) }),
    ),
  );
});
parentPort!.postMessage({ ready: true });
