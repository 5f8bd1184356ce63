// A worker thread that owns the request log's database writes, so that SQLite's
// synchronous inserts run beside the event loop instead of on it.
import { parentPort, workerData } from "node:worker_threads";
import { createDb } from "../db";
import { insertRequestLog, type RequestLogEntry } from "./request-log-insert";

const db = createDb((workerData as { databaseUrl: string }).databaseUrl);
let writing = Promise.resolve();

parentPort!.on("message", (batch: RequestLogEntry[]) => {
  writing = writing.then(() =>
    insertRequestLog(db, batch).then(
      () => parentPort!.postMessage({ written: batch.length }),
      (error: unknown) => parentPort!.postMessage({ failed: batch.length, reason: error instanceof Error ? error.message : String(error) }),
    ),
  );
});
parentPort!.postMessage({ ready: true });
