/** A gateway request once answered: one access line, and one usage row when its environment is known. */
export type RequestLogEntry = {
  at: Date;
  requestId: string;
  method: string;
  /** the path asked for */
  path: string;
  /** the route template that served it, when one matched */
  route: string | null;
  status: number;
  latencyMs: number;
  clientId: string | null;
  /** set once the path named a known environment; only then does the request count in usage */
  environment: string | null;
  api: string | null;
  /** the code of the problem the gateway answered with, or the token endpoint's OAuth error; null otherwise */
  problem: string | null;
};

/** The columns of a usage row, in `REQUEST_LOG_COLUMNS` order. */
type RequestLogValues = [at: Date, environment: string, api: string, clientId: string | null, method: string, route: string, status: number, latencyMs: number, requestId: string, problem: string | null];

export const REQUEST_LOG_COLUMNS = `"at", "environment", "api", "clientId", "method", "route", "status", "latencyMs", "requestId", "problem"`;

/** The usage row of an answered request; none when the request named no known environment. */
export function requestLogValues(entry: RequestLogEntry): RequestLogValues | null {
  if (entry.environment === null) return null;
  return [entry.at, entry.environment, entry.api ?? "", entry.clientId, entry.method, entry.route ?? "(unmatched)", entry.status, entry.latencyMs, entry.requestId, entry.problem];
}
