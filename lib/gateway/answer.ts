import type { Logger } from "pino";
import type { PlainResponse } from "../http/message";
import { ProblemError, problemPlainResponse, toProblem } from "../http/problem";
import type { GatewayMetrics } from "../metrics/gateway-metrics";
import type { Decided } from "./pipeline";
import { addDeprecationHeaders } from "./policies/lifecycle/stage";
import { UPSTREAM_FAILURES } from "./policies/upstream/failures";
import type { RequestTrace } from "./request-trace";

/** Adds the fields the stages decided every answer to the call carries: the RateLimit headers and a deprecation's. */
export function addDecidedFields(headers: Record<string, string | string[]>, decided: Readonly<Decided>): void {
  Object.assign(headers, decided.headers);
  if (decided.deprecation) addDeprecationHeaders(headers, decided.deprecation);
}

/**
 * The problem answer to a call that `error` ended, with the fields its stages decided but on a 429,
 * whose refusal carries its own RateLimit headers. An error no stage meant is logged as `failed`;
 * an upstream's failure is counted.
 */
export function refusalAnswer(
  error: unknown,
  decided: Readonly<Decided>,
  context: { instance: string; requestId: string; trace: RequestTrace; log: Logger; metrics: GatewayMetrics; failed: string },
): { response: PlainResponse; refusal: ProblemError } {
  const { requestId, trace } = context;
  const refusal = toProblem(error);
  if (refusal.status >= 500 && !(error instanceof ProblemError)) context.log.error({ err: error, requestId, traceId: trace.traceId }, context.failed);
  const upstreamFailure = UPSTREAM_FAILURES[refusal.code];
  if (upstreamFailure) context.metrics.upstreamFailed(decided.env?.slug ?? "", decided.api ?? "", upstreamFailure);
  const response = problemPlainResponse(refusal, { instance: context.instance, requestId, traceId: trace.traceId });
  if (refusal.status !== 429) Object.assign(response.headers, decided.headers);
  if (decided.deprecation) addDeprecationHeaders(response.headers, decided.deprecation);
  return { response, refusal };
}
