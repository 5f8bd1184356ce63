import "server-only";
import type { Logger } from "pino";
import type { BuiltInRoute } from "../built-in-apis/route";
import type { ApiKind } from "../db";
import type { IncomingRequest, PlainResponse } from "../http/message";
import { canonicalPath } from "../http/canonical-path";
import { ProblemError, problemPlainResponse, toProblem } from "../http/problem";
import { PROBLEMS } from "../http/problem-types";
import { requestIdFrom } from "../http/request-id";
import type { GatewayMetrics, UpstreamFailure } from "../metrics/gateway-metrics";
import type { TokenService } from "../oauth/token-service";
import type { GatewayTracer } from "../tracing/tracer";
import { type Admission, createAdmission, type Outcome } from "./admission";
import type { Authenticator } from "./authenticate";
import type { Cors } from "./cors";
import type { RateLimitStage } from "./policies/rate-limit/stage";
import type { GatewayApi, GatewayDirectory, GatewayEnvironment } from "./directory";
import { addDeprecationHeaders } from "./lifecycle";
import type { Upstreams } from "./proxy";
import type { RequestRecorder } from "./request-log";
import { type RequestTrace, requestSummary, requestTrace } from "./request-trace";
import type { ResponseCache } from "./policies/response-cache/stage";
import type { RequestValidationMetrics } from "./policies/request-validation/metrics";
import { validateRequest } from "./policies/request-validation/stage";
import { createRouteTable } from "./route-match";

export type GatewayDeps = {
  directory: GatewayDirectory;
  log: Logger;
  tokenService: TokenService;
  authenticate: Authenticator;
  rateLimit: RateLimitStage;
  recorder: RequestRecorder;
  metrics: GatewayMetrics;
  builtInRoutes: Partial<Record<ApiKind, readonly BuiltInRoute[]>>;
  upstreams: Upstreams;
  /** wraps every proxied call: answers from the response cache, or forwards and stores (lib/gateway/policies/response-cache) */
  responseCache: ResponseCache;
  /** counts the proxied calls that fail request validation (lib/gateway/policies/request-validation) */
  requestValidationMetrics: RequestValidationMetrics;
  /** the caller's address, as the trusted proxies report it */
  addressOf: (request: IncomingRequest) => string;
  /** the portal's address, which the `Link` headers of deprecated versions point into */
  publicUrl: string;
  /** spans of requests, exported; undefined when tracing is not configured */
  tracer?: GatewayTracer;
  /** CORS for the portal's origin; undefined when the gateway shares that origin */
  cors?: Cors;
};

/** The refusals that count as upstream failures in the metrics, by the kind they count as. */
export const UPSTREAM_FAILURES: Partial<Record<string, UpstreamFailure>> = {
  "upstream-unreachable": "error",
  "upstream-timeout": "timeout",
  "upstream-unavailable": "unavailable",
  "upstream-invalid-response": "error",
};

/** What a proxied answer whose body the upstream broke off is recorded as: the client got its status, then a cut connection. */
const BROKEN_ANSWER = "upstream-invalid-response";

export type Gateway = (request: IncomingRequest) => Promise<PlainResponse>;

/** The admission of the gateway `deps` build: what the WebSocket handshake goes through too. */
export function createGatewayAdmission(deps: GatewayDeps): Admission {
  const routeTables = new Map(Object.entries(deps.builtInRoutes).map(([kind, routes]) => [kind as ApiKind, createRouteTable(routes ?? [])]));
  return createAdmission({ ...deps, routeTables });
}

/**
 * The gateway, free of React and Next. Stages: authenticate, authorize,
 * rate-limit, route (built-in, token service or proxy), record.
 */
export function createGateway(deps: GatewayDeps): Gateway {
  const { log, tokenService, recorder, metrics } = deps;
  const admit = createGatewayAdmission(deps);

  async function proxy(
    outcome: Outcome,
    request: IncomingRequest,
    url: URL,
    env: GatewayEnvironment,
    api: GatewayApi,
    remainder: string,
    route: string,
    requestId: string,
    trace: RequestTrace,
    clientId: string | null,
  ) {
    const maxBodyBytes = deps.upstreams.set.get(env.slug, api.slug)?.policy.maxRequestBodyBytes;
    const checked = await validateRequest({ request, url, api, remainder, route, maxBodyBytes, metrics: deps.requestValidationMetrics });
    if (checked.refusal) throw checked.refusal;
    outcome.validationErrors = checked.reported;
    const forward = (sent: IncomingRequest) =>
      deps.upstreams.forward({
        request: sent,
        url,
        env: env.slug,
        api: api.slug,
        remainder,
        clientId,
        clientAddress: deps.addressOf(request),
        requestId,
        trace,
        body: checked.body,
      });
    return deps.responseCache({ request, url, envId: env.id, envSlug: env.slug, api, route, remainder, clientId, forward });
  }

  async function route(request: IncomingRequest, url: URL, path: string, requestId: string, trace: RequestTrace, outcome: Outcome): Promise<PlainResponse> {
    const admitted = await admit({ request, path, trace, outcome });
    switch (admitted.kind) {
      case "token-service":
        return tokenService(request, url, admitted.env, admitted.servicePath, outcome);
      case "built-in": {
        const caller = { clientId: admitted.caller.token.clientId, scopes: admitted.caller.token.scopes };
        return admitted.route.handle({ request, url, params: admitted.params, env: admitted.env, caller, requestId });
      }
      case "proxied":
        return proxy(
          outcome,
          request,
          url,
          admitted.env,
          admitted.api,
          admitted.remainder,
          admitted.route,
          requestId,
          trace,
          admitted.caller?.token.clientId ?? null,
        );
    }
  }

  return async function handleGatewayRequest(request) {
    const startedAt = performance.now();
    const requestId = requestIdFrom(request.headers);
    const trace = requestTrace(request, deps.tracer);
    const url = new URL(request.url);
    // Production's server has made the path canonical already; `next dev` passes it as Next parsed it.
    let path = url.pathname;
    const outcome: Outcome = {};
    let response: PlainResponse;
    try {
      path = canonicalPath(url.pathname);
      response = deps.cors?.preflight(request) ?? (await route(request, url, path, requestId, trace, outcome));
      Object.assign(response.headers, outcome.headers);
      if (outcome.deprecation) addDeprecationHeaders(response.headers, outcome.deprecation);
      response.headers["x-request-id"] = requestId;
    } catch (error) {
      const refusal = toProblem(error);
      outcome.problem = refusal.code;
      if (refusal.status >= 500 && !(error instanceof ProblemError)) log.error({ err: error, requestId, traceId: trace.traceId }, "gateway request failed");
      const upstreamFailure = UPSTREAM_FAILURES[refusal.code];
      if (upstreamFailure) metrics.upstreamFailed(outcome.env?.slug ?? "", outcome.api ?? "", upstreamFailure);
      response = problemPlainResponse(refusal, { instance: path, requestId, traceId: trace.traceId });
      if (refusal.status !== 429) Object.assign(response.headers, outcome.headers);
      if (outcome.deprecation) addDeprecationHeaders(response.headers, outcome.deprecation);
    }
    const latencyMs = performance.now() - startedAt;
    // Upstream answers included: a browser must not guess a type the API did not declare.
    response.headers["x-content-type-options"] = "nosniff";
    deps.cors?.expose(request, response);
    const at = new Date();
    const record = (status: number) => {
      metrics.request(outcome.env?.slug ?? "", outcome.api ?? "", outcome.route ?? "", status, latencyMs / 1000);
      recorder.record({
        at,
        requestId,
        traceId: trace.traceId,
        method: request.method.slice(0, 16),
        path,
        route: outcome.route ?? null,
        status,
        latencyMs: Math.round(latencyMs * 100) / 100,
        clientId: outcome.clientId ?? null,
        environment: outcome.env?.slug ?? null,
        api: outcome.api ?? null,
        problem: outcome.problem ?? null,
        validationErrors: outcome.validationErrors ?? null,
      });
      trace.span?.end(requestSummary({ method: request.method, path, status, requestId }, outcome));
    };
    const body = response.body;
    const ended = body !== null && typeof body === "object" && "ended" in body ? body.ended : undefined;
    if (!ended) record(response.status);
    // A streamed answer is recorded once it is over, as what the client got: a body broken off is a 502.
    else
      void ended.then((end) => {
        if (end !== "broken") return record(response.status);
        outcome.problem = BROKEN_ANSWER;
        metrics.upstreamFailed(outcome.env?.slug ?? "", outcome.api ?? "", "error");
        record(PROBLEMS[BROKEN_ANSWER].status);
      });
    return response;
  };
}
