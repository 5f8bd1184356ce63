import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import { Registry } from "prom-client";
import { config } from "../config";
import { problem, type ProblemError, problemPlainResponse } from "../http/problem";
import { nodeHeaders, writePlainResponse } from "../http/node-message";
import { requestIdFrom } from "../http/request-id";
import { metricsOfAllProcesses } from "./cluster-metrics";
import { processMetrics } from "./registry";

/** The exposition `/metrics` answers with. */
export type MetricsCollector = () => Promise<string>;

/** This process's registry; in a gateway worker, every worker's together, through the primary. */
function defaultCollector(): MetricsCollector {
  return cluster.isWorker ? metricsOfAllProcesses : () => processMetrics().registry.metrics();
}

const METRICS_PATH = /^\/metrics(\?|$)/;

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Compares digests, so the time taken says nothing about the token. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer +(\S+) *$/i.exec(header ?? "")?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

function answer(req: IncomingMessage, res: ServerResponse, token: string | undefined, collect: MetricsCollector): void {
  const requestId = requestIdFrom(nodeHeaders(req));
  const refuse = (problem: ProblemError) => writePlainResponse(problemPlainResponse(problem, { instance: "/metrics", requestId }), res);
  if (!token) {
    void refuse(problem("not-found", { detail: "Metrics are off: METRICS_TOKEN is not set." }));
    return;
  }
  if (!bearerMatches(req.headers.authorization, token)) {
    void refuse(
      problem("metrics-token-required", {
        detail: "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`.",
        headers: { "www-authenticate": 'Bearer realm="metrics"' },
      }),
    );
    return;
  }
  collect()
    .then((text) =>
      writePlainResponse(
        { status: 200, headers: { "content-type": Registry.PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store", "x-request-id": requestId }, body: text },
        res,
      ),
    )
    .catch(() => refuse(problem("internal-error", { detail: "The metrics could not be collected." })));
}

/**
 * Answers `GET /metrics` on the public listener and returns true, or returns
 * false for any other request (and for every request when `METRICS_PORT`
 * moves the metrics to their own listener). One call in each server's
 * request handler.
 */
export function serveMetrics(req: IncomingMessage, res: ServerResponse): boolean {
  const { metricsToken, metricsPort } = config();
  if (metricsPort !== undefined || !METRICS_PATH.test(req.url ?? "")) return false;
  answer(req, res, metricsToken, defaultCollector());
  return true;
}

/**
 * With `METRICS_PORT` set, a listener on 127.0.0.1 that serves only `/metrics`, from
 * `collect` (this process's registry by default); undefined otherwise.
 */
export function startMetricsListener(log: Logger, collect: MetricsCollector = defaultCollector()): Server | undefined {
  const { metricsToken, metricsPort } = config();
  if (metricsPort === undefined) return undefined;
  const server = createServer((req, res) => {
    if (METRICS_PATH.test(req.url ?? "")) answer(req, res, metricsToken, collect);
    else
      void writePlainResponse(
        problemPlainResponse(problem("not-found", { detail: "This listener serves /metrics only." }), {
          instance: "/",
          requestId: requestIdFrom(nodeHeaders(req)),
        }),
        res,
      );
  });
  server.listen(metricsPort, "127.0.0.1", () => log.info({ port: metricsPort }, "metrics listen on 127.0.0.1"));
  return server;
}
