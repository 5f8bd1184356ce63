/** A gateway request once answered: one access line, and one usage row when its environment is known. */
export type RequestLogEntry = {
  at: Date;
  requestId: string;
  /** the W3C trace id: the caller's, from a valid traceparent, or one the gateway started */
  traceId: string;
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
  /** JSON array of the request-validation errors of a call forwarded under `report`; absent when it passed or was not checked */
  validationErrors?: string | null;
  /** a WebSocket connection's bytes from the client and to it; absent for plain calls */
  bytesIn?: number | null;
  bytesOut?: number | null;
};

/**
 * The rows the gateway hands its writer at once (`lib/gateway/request-log.ts`), and the most
 * SQLite commits together (`request-log-sqlite.ts`), so that a batch is one commit unless a
 * writer waits for the lock.
 */
export const REQUEST_LOG_BATCH_ROWS = 250;

/** Writes a batch's usage rows; resolves once they are committed. */
export type RequestLogInsert = (batch: readonly RequestLogEntry[]) => Promise<void>;
