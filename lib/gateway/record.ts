import type { GatewayMetrics } from "../metrics/gateway-metrics";
import type { Decided } from "./pipeline";
import type { RequestRecorder } from "./request-log";
import { type RequestTrace, requestSummary } from "./request-trace";

/** A gateway request as its record names it. */
export type RecordedRequest = { at: Date; requestId: string; trace: RequestTrace; method: string; path: string };

/** How a request ended: its status and the code of the problem that ended it, if one did; a WebSocket connection's bytes each way. */
export type Ending = { status: number; latencyMs: number; problem?: string; bytesIn?: number; bytesOut?: number };

export type CallRecords = {
  /** The request's metrics and span, once it is answered. */
  answered(request: RecordedRequest, decided: Readonly<Decided>, end: Ending): void;
  /** Its request-log row, once it is over. */
  logged(request: RecordedRequest, decided: Readonly<Decided>, end: Ending): void;
};

/** The one place a request's record is built from what its stages decided: its metrics, its span and its request-log row. */
export function createCallRecords(deps: { recorder: RequestRecorder; metrics: GatewayMetrics }): CallRecords {
  const { recorder, metrics } = deps;
  return {
    answered(request, decided, end) {
      metrics.request(decided.env?.slug ?? "", decided.api ?? "", decided.route ?? "", end.status, end.latencyMs / 1000);
      const { method, path, requestId } = request;
      request.trace.span?.end(requestSummary({ method, path, status: end.status, requestId, problem: end.problem ?? decided.problem }, decided));
    },
    logged(request, decided, end) {
      recorder.record({
        at: request.at,
        requestId: request.requestId,
        traceId: request.trace.traceId,
        method: request.method.slice(0, 16),
        path: request.path,
        route: decided.route ?? null,
        status: end.status,
        latencyMs: Math.round(end.latencyMs * 100) / 100,
        clientId: decided.clientId ?? null,
        environment: decided.env?.slug ?? null,
        api: decided.api ?? null,
        problem: end.problem ?? decided.problem ?? null,
        validationErrors: decided.validationErrors ?? null,
        bytesIn: end.bytesIn ?? null,
        bytesOut: end.bytesOut ?? null,
      });
    },
  };
}
