import type { Context, Span, Tracer } from "@opentelemetry/api";
import type { Logger } from "pino";
import type { TraceParent } from "../http/trace-context";
import { loadOtlpSdk, type OtlpSdk, startTracerProvider } from "./otlp-sdk";
import type { GatewayTracer, RequestSpan, RequestSummary, StageSpan, UpstreamSpan } from "./tracer";

function hexFlags(flags: number): string {
  return flags.toString(16).padStart(2, "0");
}

class OtlpStageSpan implements StageSpan {
  constructor(
    private readonly sdk: OtlpSdk,
    private readonly span: Span,
  ) {}

  end(problem?: string): void {
    if (problem !== undefined) {
      this.span.setAttribute(this.sdk.semconv.ATTR_ERROR_TYPE, problem);
      this.span.setStatus({ code: this.sdk.api.SpanStatusCode.ERROR, message: problem });
    }
    this.span.end();
  }
}

/** OpenTelemetry's HTTP client conventions: a status of 400 or more is an error of the call. */
class OtlpUpstreamSpan implements UpstreamSpan {
  readonly spanId: string;
  readonly flags: string;

  constructor(
    private readonly sdk: OtlpSdk,
    private readonly span: Span,
  ) {
    const context = span.spanContext();
    this.spanId = context.spanId;
    this.flags = hexFlags(context.traceFlags);
  }

  answered(status: number): void {
    this.span.setAttribute(this.sdk.semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    if (status >= 400) this.#fail(String(status));
    this.span.end();
  }

  failed(errorType: string): void {
    this.#fail(errorType);
    this.span.end();
  }

  #fail(errorType: string): void {
    this.span.setAttribute(this.sdk.semconv.ATTR_ERROR_TYPE, errorType);
    this.span.setStatus({ code: this.sdk.api.SpanStatusCode.ERROR, message: errorType });
  }
}

/** The server span; its children are started in its context, passed explicitly rather than through a context manager. */
class OtlpRequestSpan implements RequestSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly flags: string;
  #context: Context | undefined;

  constructor(
    private readonly sdk: OtlpSdk,
    private readonly tracer: Tracer,
    private readonly span: Span,
  ) {
    const context = span.spanContext();
    this.traceId = context.traceId;
    this.spanId = context.spanId;
    this.flags = hexFlags(context.traceFlags);
  }

  #childContext(): Context {
    this.#context ??= this.sdk.api.trace.setSpan(this.sdk.api.ROOT_CONTEXT, this.span);
    return this.#context;
  }

  stage(name: string): StageSpan {
    return new OtlpStageSpan(this.sdk, this.tracer.startSpan(name, { kind: this.sdk.api.SpanKind.INTERNAL }, this.#childContext()));
  }

  upstreamCall(call: { method: string; origin: string; path: string; attempt: number }): UpstreamSpan {
    const { semconv, api } = this.sdk;
    const origin = new URL(call.origin);
    const port = origin.port === "" ? (origin.protocol === "https:" ? 443 : 80) : Number(origin.port);
    const span = this.tracer.startSpan(
      call.method,
      {
        kind: api.SpanKind.CLIENT,
        attributes: {
          [semconv.ATTR_HTTP_REQUEST_METHOD]: call.method,
          [semconv.ATTR_SERVER_ADDRESS]: origin.hostname,
          [semconv.ATTR_SERVER_PORT]: port,
          // Without the query, as the request log keeps it: a client may put secrets there.
          [semconv.ATTR_URL_FULL]: `${call.origin}${call.path}`,
          ...(call.attempt > 0 ? { [semconv.ATTR_HTTP_REQUEST_RESEND_COUNT]: call.attempt } : {}),
        },
      },
      this.#childContext(),
    );
    return new OtlpUpstreamSpan(this.sdk, span);
  }

  /** OpenTelemetry's HTTP server conventions: only a 5xx answer is an error of the server's. */
  end(summary: RequestSummary): void {
    const { semconv } = this.sdk;
    const { span } = this;
    span.updateName(summary.name);
    span.setAttribute(semconv.ATTR_URL_PATH, summary.path);
    span.setAttribute(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, summary.status);
    span.setAttribute("gatehouse.request_id", summary.requestId);
    if (summary.route !== undefined) span.setAttribute(semconv.ATTR_HTTP_ROUTE, summary.route);
    if (summary.env !== undefined) span.setAttribute("gatehouse.env", summary.env);
    if (summary.api !== undefined) span.setAttribute("gatehouse.api", summary.api);
    if (summary.clientId !== undefined) span.setAttribute("gatehouse.client_id", summary.clientId);
    if (summary.problem !== undefined) span.setAttribute("gatehouse.problem", summary.problem);
    if (summary.status >= 500) {
      const errorType = summary.problem ?? String(summary.status);
      span.setAttribute(semconv.ATTR_ERROR_TYPE, errorType);
      span.setStatus({ code: this.sdk.api.SpanStatusCode.ERROR, message: errorType });
    }
    span.end();
  }
}

/**
 * Exports a span per gateway request over OTLP/HTTP, with children for its stages
 * and upstream calls. The SDK loads in the background; until it has, requests get
 * no span (`ready` says when, and the servers wait for it before they listen).
 */
export function createOtlpTracer(options: { endpoint: string; serviceName: string; log: Logger }): GatewayTracer {
  let started: { sdk: OtlpSdk; tracer: Tracer; shutdown: () => Promise<void> } | undefined;
  const ready = loadOtlpSdk().then(
    (sdk) => {
      const { tracer, provider } = startTracerProvider(sdk, options);
      started = { sdk, tracer, shutdown: () => provider.shutdown() };
    },
    (error: unknown) => options.log.error({ err: error }, "could not load OpenTelemetry; gateway requests are not traced"),
  );

  return {
    startRequest(method: string, parent: TraceParent | null, traceState: string | null) {
      if (!started) return undefined;
      const { sdk, tracer } = started;
      const { api, semconv } = sdk;
      const parentContext = parent
        ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.parentId,
            traceFlags: Number.parseInt(parent.flags, 16),
            isRemote: true,
            traceState: traceState === null ? undefined : api.createTraceState(traceState),
          })
        : api.ROOT_CONTEXT;
      const span = tracer.startSpan(method, { kind: api.SpanKind.SERVER, attributes: { [semconv.ATTR_HTTP_REQUEST_METHOD]: method } }, parentContext);
      return new OtlpRequestSpan(sdk, tracer, span);
    },
    ready,
    async shutdown() {
      await ready;
      await started?.shutdown();
    },
  };
}
