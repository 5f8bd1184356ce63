import type { RequestLogEntry } from "./request-log-entry";

/** The columns of a usage row, in `REQUEST_LOG_COLUMNS` order. */
type RequestLogValues = [
  at: Date,
  environment: string,
  api: string,
  clientId: string | null,
  method: string,
  route: string,
  status: number,
  latencyMs: number,
  requestId: string,
  problem: string | null,
  traceId: string,
  validationErrors: string | null,
  bytesIn: number | null,
  bytesOut: number | null,
];

export const REQUEST_LOG_COLUMNS = `"at", "environment", "api", "clientId", "method", "route", "status", "latencyMs", "requestId", "problem", "traceId", "validationErrors", "bytesIn", "bytesOut"`;

/** The usage row of an answered request; none when the request named no known environment. */
export function requestLogValues(entry: RequestLogEntry): RequestLogValues | null {
  if (entry.environment === null) return null;
  return [
    entry.at,
    entry.environment,
    entry.api ?? "",
    entry.clientId,
    entry.method,
    entry.route ?? "(unmatched)",
    entry.status,
    entry.latencyMs,
    entry.requestId,
    entry.problem,
    entry.traceId,
    entry.validationErrors ?? null,
    entry.bytesIn ?? null,
    entry.bytesOut ?? null,
  ];
}
