// A worker thread that writes the gateway's access lines and request log rows,
// so that formatting the lines and SQLite's synchronous inserts run beside the
// event loop instead of on it.
import { parentPort, workerData } from "node:worker_threads";
import pino from "pino";
import { sqlitePath } from "../config";
import { createAccessLog } from "../log";
import { writeAccessLines } from "./access-lines";
import type { RequestLogEntry } from "./request-log-entry";
import { createSqliteRequestLogInsert } from "./request-log-sqlite";

const { databaseUrl } = workerData as { databaseUrl: string };

/** Prisma, and the query compiler it loads (some 60 MB), only where the driver is not used directly. */
async function createInsert(): Promise<(batch: RequestLogEntry[]) => Promise<void>> {
  if (databaseUrl.startsWith("file:")) {
    const insert = createSqliteRequestLogInsert(sqlitePath(databaseUrl));
    return async (batch) => insert(batch);
  }
  const [{ createDb }, { insertRequestLog }] = await Promise.all([import("../db"), import("./request-log-insert")]);
  const db = createDb(databaseUrl);
  return (batch) => insertRequestLog(db, batch);
}

const insert = await createInsert();
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
