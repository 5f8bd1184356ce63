import type { Tracer } from "@opentelemetry/api";
import type { ExportResult } from "@opentelemetry/core";
import type { BasicTracerProvider, ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { Logger } from "pino";
import { newSpanId, newTraceId } from "../http/trace-ids";

/**
 * OpenTelemetry's packages, imported when tracing is configured and only then: they
 * add some 17 MB to the process and take 300 ms to load. Imported by name at run
 * time, so that the compiled server does not load them at start-up either.
 */
export async function loadOtlpSdk() {
  const [api, core, base, exporter, resources, semconv] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/semantic-conventions"),
  ]);
  return { api, core, base, exporter, resources, semconv };
}

export type OtlpSdk = Awaited<ReturnType<typeof loadOtlpSdk>>;

/** A collector that stays away would otherwise fill the log: one line a minute says so. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/** The exporter, with failed exports logged: the SDK reports them to no one by default. */
function loggingFailures(sdk: OtlpSdk, exporter: SpanExporter, log: Logger): SpanExporter {
  let loggedAt = -Infinity;
  let failed = 0;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exporter.export(spans, (result) => {
        if (result.code !== sdk.core.ExportResultCode.SUCCESS) {
          failed += spans.length;
          if (performance.now() - loggedAt >= FAILURE_LOG_INTERVAL_MS) {
            log.warn({ err: result.error, spans: failed }, "could not export spans to the OpenTelemetry collector");
            loggedAt = performance.now();
            failed = 0;
          }
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * A tracer provider of its own, registered nowhere: no global provider, context
 * manager or propagator, and no instrumentation patching Node's modules. Spans go
 * in batches to `{endpoint}/v1/traces` as OTLP/HTTP with JSON; ids come from the
 * gateway's pool. The SDK's own OTEL_* variables (sampler, batch sizes, exporter
 * headers and timeout) apply as it documents them.
 */
export function startTracerProvider(
  sdk: OtlpSdk,
  options: { endpoint: string; serviceName: string; log: Logger },
): { tracer: Tracer; provider: BasicTracerProvider } {
  const exporter = new sdk.exporter.OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, "")}/v1/traces` });
  const provider = new sdk.base.BasicTracerProvider({
    resource: sdk.resources.resourceFromAttributes({ [sdk.semconv.ATTR_SERVICE_NAME]: options.serviceName }),
    idGenerator: { generateTraceId: newTraceId, generateSpanId: newSpanId },
    spanProcessors: [new sdk.base.BatchSpanProcessor(loggingFailures(sdk, exporter, options.log))],
  });
  return { tracer: provider.getTracer("gatehouse-gateway"), provider };
}
