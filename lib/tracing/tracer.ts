import type { TraceParent } from "../http/trace-context";

/** A span around one stage of a gateway request: authentication, rate limit. */
export type StageSpan = {
  /** ends it; a problem code marks the stage as failed with that code */
  end(problem?: string): void;
};

/** A client span around one call to an upstream target: every attempt has its own. */
export type UpstreamSpan = {
  readonly spanId: string;
  /** trace-flags of the span, for the `traceparent` the call carries */
  readonly flags: string;
  answered(status: number): void;
  /** the call got no answer: `errorType` is the error's code or the problem's */
  failed(errorType: string): void;
};

/** What the server span says of a request once it is answered. */
export type RequestSummary = {
  /** the span's name: method and route */
  name: string;
  /** the route template under `/gw/`, when one matched */
  route: string | undefined;
  path: string;
  status: number;
  env: string | undefined;
  api: string | undefined;
  clientId: string | undefined;
  requestId: string;
  problem: string | undefined;
};

/** The server span of one gateway request, parent of its stages' and upstream calls' spans. */
export type RequestSpan = {
  readonly traceId: string;
  readonly spanId: string;
  readonly flags: string;
  stage(name: string): StageSpan;
  upstreamCall(call: { method: string; origin: string; path: string; attempt: number }): UpstreamSpan;
  end(summary: RequestSummary): void;
};

/** Spans of gateway requests, exported somewhere; the gateway has none unless tracing is configured. */
export type GatewayTracer = {
  /**
   * Starts a request's span: a child of the caller's span when its `traceparent` was
   * valid, else the root of a new trace. Undefined while the tracer is loading.
   */
  startRequest(method: string, parent: TraceParent | null, traceState: string | null): RequestSpan | undefined;
  /** resolves once spans can be started */
  readonly ready: Promise<void>;
  /** exports what is buffered, then stops */
  shutdown(): Promise<void>;
};
