// A worker thread that writes the gateway's access lines and request log rows,
// so that formatting the lines and SQLite's synchronous inserts run beside the
// event loop instead of on it.
import { parentPort, workerData } from "node:worker_threads";
import pino from "pino";
import { sqlitePath } from "../config";
import { createDb } from "../db";
import { createAccessLog } from "../log";
import { writeAccessLines } from "./access-lines";
import { insertRequestLog, type RequestLogEntry } from "./request-log-insert";
import { createSqliteRequestLogInsert } from "./request-log-sqlite";

const { databaseUrl } = workerData as { databaseUrl: string };

function createInsert(): (batch: RequestLogEntry[]) => Promise<void> {
  if (databaseUrl.startsWith("file:")) {
    const insert = createSqliteRequestLogInsert(sqlitePath(databaseUrl));
    return async (batch) => insert(batch);
  }
  const db = createDb(databaseUrl);
  return (batch) => insertRequestLog(db, batch);
}

const insert = createInsert();
// One write per line: a line is then whole on the output even when the main thread writes to it too.
const accessLog = createAccessLog(pino.destination({ dest: 1, sync: true }));
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
