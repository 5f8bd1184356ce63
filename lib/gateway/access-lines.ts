import type { Logger } from "pino";
import type { RequestLogEntry } from "../data-plane/request-log-entry";

/** Paths are the client's to choose; clipped, a line stays short enough to be written in one piece. */
const MAX_PATH = 1_000;

/**
 * The access lines of a batch of answered gateway requests, each with its request's time; none
 * when the log's level leaves out `info`, without formatting lines that would be dropped.
 */
export function writeAccessLines(accessLog: Logger, batch: readonly RequestLogEntry[]): void {
  if (!accessLog.isLevelEnabled("info")) return;
  for (const entry of batch) {
    accessLog.info({
      time: entry.at.toISOString(),
      requestId: entry.requestId,
      traceId: entry.traceId,
      method: entry.method,
      route: entry.route ?? entry.path.slice(0, MAX_PATH),
      status: entry.status,
      latencyMs: entry.latencyMs,
      clientId: entry.clientId ?? undefined,
      env: entry.environment ?? undefined,
      problem: entry.problem ?? undefined,
    });
  }
}
