import "server-only";
import { config } from "../config";
import type { Db } from "../db";
import { log } from "../log";
import { rollUpRequestLog } from "./request-log-rollup";

const HOUR_MS = 3_600_000;

/** Hourly, off the gateway's path: raw request-log rows past the retention become hourly aggregates. */
export function startRequestLogRetention(db: Db): void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    rollUpRequestLog(db, { retentionDays: config().requestLogRetentionDays })
      .then((result) => {
        if (result.rolledUp > 0) log.info(result, "rolled up old request-log rows");
      })
      .catch((error: unknown) => log.warn({ err: error }, "request-log rollup failed; retrying next hour"))
      .finally(() => {
        running = false;
      });
  };
  run();
  setInterval(run, HOUR_MS).unref();
}
