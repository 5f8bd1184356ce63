import type { IncomingRequest } from "../http/message";
import { formatTraceparent, parseTraceparent } from "../http/trace-context";
import { newSpanId, newTraceId } from "../http/trace-ids";
import type { GatewayTracer, RequestSpan, RequestSummary, UpstreamSpan } from "../tracing/tracer";

/** Where a gateway request stands in a trace: in the request log, in its problems, and passed on upstream. */
export type RequestTrace = {
  readonly traceId: string;
  /** the caller's span, when the gateway records none of its own; null when the gateway started the trace */
  readonly parentId: string | null;
  readonly flags: string;
  /** the caller's `tracestate`, kept only beside a valid `traceparent` */
  readonly traceState: string | null;
  /** the gateway's own span, when tracing is configured */
  readonly span: RequestSpan | undefined;
};

/**
 * The caller's trace, when its `traceparent` is valid, else a new one; an invalid
 * one is ignored, never refused. Untraced, a new trace is not sampled (flags 00):
 * the gateway records nothing of it.
 */
export function requestTrace(request: IncomingRequest, tracer: GatewayTracer | undefined): RequestTrace {
  const parent = parseTraceparent(request.headers.get("traceparent"));
  const traceState = parent ? request.headers.get("tracestate") : null;
  const span = tracer?.startRequest(request.method, parent, traceState);
  if (span) return { traceId: span.traceId, parentId: span.spanId, flags: span.flags, traceState, span };
  if (parent) return { traceId: parent.traceId, parentId: parent.parentId, flags: parent.flags, traceState, span: undefined };
  return { traceId: newTraceId(), parentId: null, flags: "00", traceState: null, span: undefined };
}

/**
 * The `traceparent` an upstream call carries: the call's own span as parent when the
 * gateway records one; otherwise the caller's span, passed on as the gateway found it,
 * or for a trace the gateway started, an id standing for the gateway.
 */
export function upstreamTraceparent(trace: RequestTrace, call: UpstreamSpan | undefined): string {
  if (call) return formatTraceparent(trace.traceId, call.spanId, call.flags);
  return formatTraceparent(trace.traceId, trace.parentId ?? newSpanId(), trace.flags);
}

/** What the gateway learnt of a request while answering it, as far as its span tells. */
type Answered = {
  env?: { slug: string };
  api?: string;
  /** the token service's endpoints sit under the environment rather than an API */
  tokenService?: true;
  route?: string;
  clientId?: string;
};

/**
 * The route a request's span is named after: as much of `/gw/{env}/{api}` as the
 * gateway resolved, slugs written out (there are few, as there are few templates),
 * then the template that matched, when one did.
 */
function spanRoute(answered: Answered): { path: string; template: boolean } {
  if (!answered.env) return { path: "/gw", template: false };
  const environment = `/gw/${answered.env.slug}`;
  if (answered.tokenService) return { path: `${environment}${answered.route ?? ""}`, template: answered.route !== undefined };
  if (answered.api === undefined) return { path: environment, template: false };
  const api = `${environment}/${answered.api}`;
  const template = answered.route?.startsWith("/") === true && answered.route !== "/*";
  return { path: template ? `${api}${answered.route}` : api, template };
}

/** What the server span of an answered request says. */
export function requestSummary(
  request: { method: string; path: string; status: number; requestId: string; problem: string | undefined },
  answered: Answered,
): RequestSummary {
  const { path, template } = spanRoute(answered);
  return {
    name: `${request.method} ${path}`,
    route: template ? path : undefined,
    path: request.path,
    status: request.status,
    env: answered.env?.slug,
    api: answered.api,
    clientId: answered.clientId,
    requestId: request.requestId,
    problem: request.problem,
  };
}
