import "server-only";
import type { Logger } from "pino";
import type { BuiltInRoute } from "../built-in-apis/route";
import type { ApiKind } from "../db";
import type { IncomingRequest, PlainResponse } from "../http/message";
import { canonicalPath } from "../http/canonical-path";
import { problem, ProblemError, problemPlainResponse, toProblem } from "../http/problem";
import { PROBLEMS } from "../http/problem-types";
import { requestIdFrom } from "../http/request-id";
import { methodNotServed } from "../http/served-methods";
import { type RateLimiter, rateLimitHeaders } from "../limiters/rate-limit";
import type { GatewayMetrics, UpstreamFailure } from "../metrics/gateway-metrics";
import { isTokenServicePath, type TokenService } from "../oauth/token-service";
import type { GatewayTracer } from "../tracing/tracer";
import type { Authenticated, Authenticator } from "./authenticate";
import type { Cors } from "./cors";
import { authorizeAnyScope, authorizeApi, authorizeScope } from "./authorize";
import type { GatewayDirectory, GatewayApi, GatewayEnvironment } from "./directory";
import { UNDECLARED_ROUTE } from "./document-routes";
import {
  addDeprecationHeaders,
  deprecationHeaders,
  deprecationOf,
  type GatewayVersion,
  hasLifecycle,
  operationKey,
  refuseIfRetired,
  selectVersion,
  versionPageUrl,
} from "./lifecycle";
import type { Upstreams } from "./proxy";
import type { RequestRecorder } from "./request-log";
import { type RequestTrace, requestSummary, requestTrace } from "./request-trace";
import { createRouteTable, type RouteTable } from "./route-match";
import { apiList, environmentList } from "./not-found-hints";
import { parseTarget } from "./target";

export type GatewayDeps = {
  directory: GatewayDirectory;
  log: Logger;
  tokenService: TokenService;
  authenticate: Authenticator;
  rateLimiter: RateLimiter;
  recorder: RequestRecorder;
  metrics: GatewayMetrics;
  builtInRoutes: Partial<Record<ApiKind, readonly BuiltInRoute[]>>;
  upstreams: Upstreams;
  /** the caller's address, as the trusted proxies report it */
  addressOf: (request: IncomingRequest) => string;
  /** the portal's address, which the `Link` headers of deprecated versions point into */
  publicUrl: string;
  /** spans of requests, exported; undefined when tracing is not configured */
  tracer?: GatewayTracer;
  /** CORS for the portal's origin; undefined when the gateway shares that origin */
  cors?: Cors;
};

function notFound(detail: string): ProblemError {
  return problem("not-found", { detail });
}

/** The refusals that count as upstream failures in the metrics, by the kind they count as. */
const UPSTREAM_FAILURES: Partial<Record<string, UpstreamFailure>> = {
  "upstream-unreachable": "error",
  "upstream-timeout": "timeout",
  "upstream-unavailable": "unavailable",
  "upstream-invalid-response": "error",
};

/** What a proxied answer whose body the upstream broke off is recorded as: the client got its status, then a cut connection. */
const BROKEN_ANSWER = "upstream-invalid-response";

/** What the record stage needs to know about a request once it is answered. */
type Outcome = {
  env?: GatewayEnvironment;
  api?: string;
  /** set for the token service's endpoints, whose routes sit under the environment rather than an API */
  tokenService?: true;
  clientId?: string;
  route?: string;
  problem?: string;
  headers?: Record<string, string>;
  /** `Deprecation`, `Sunset` and `Link` of a deprecated version or operation, added to any answer */
  deprecation?: Record<string, string>;
};

/**
 * A proxied call's route: the template of its API's document that its path matches,
 * `(undeclared)` when the document declares no such path, `/*` for an API without one.
 */
function proxiedRoute(version: GatewayVersion | undefined, remainder: string): string {
  return version?.routes ? (version.routes(remainder) ?? UNDECLARED_ROUTE) : "/*";
}

export type Gateway = (request: IncomingRequest) => Promise<PlainResponse>;

/**
 * The gateway, free of React and Next. Stages: authenticate, authorize,
 * rate-limit, route (built-in, token service or proxy), record.
 */
export function createGateway(deps: GatewayDeps): Gateway {
  const { directory, log, tokenService, authenticate, rateLimiter, recorder, metrics } = deps;
  const routeTables = new Map<ApiKind, RouteTable>(
    Object.entries(deps.builtInRoutes).map(([kind, routes]) => [kind as ApiKind, createRouteTable(routes ?? [])]),
  );

  async function rateLimit(env: GatewayEnvironment, caller: Authenticated, outcome: Outcome, trace: RequestTrace): Promise<void> {
    const policy = caller.credential.rateLimit ?? { burst: env.rateLimitBurst, perSecond: env.rateLimitPerSecond };
    const stage = trace.span?.stage("rate limit");
    let decision: Awaited<ReturnType<RateLimiter["take"]>>;
    try {
      decision = await rateLimiter.take(`${env.id}:${caller.token.clientId}`, policy);
    } catch (error) {
      stage?.end(toProblem(error).code);
      throw error;
    }
    stage?.end(decision.allowed ? undefined : "rate-limited");
    outcome.headers = rateLimitHeaders(decision, policy);
    if (decision.allowed) return;
    metrics.rateLimited(env.slug, outcome.api ?? "");
    throw problem("rate-limited", {
      detail: `The client ${caller.token.clientId} may send ${policy.perSecond} requests per second (bursts of ${policy.burst}) in "${env.slug}".`,
      headers: { ...outcome.headers, "retry-after": String(decision.retryAfterSeconds) },
    });
  }

  /**
   * The version's life as it applies to the call, once for the version and again once the
   * route is known: 410 when retired or past its sunset, else the deprecation headers.
   */
  function applyLifecycle(request: IncomingRequest, api: GatewayApi, version: GatewayVersion | undefined, outcome: Outcome, route?: string): void {
    // Most calls go to a current version with nothing deprecated: no key to build, no date to read.
    if (!version || !hasLifecycle(version)) return;
    const operation = route === undefined ? undefined : operationKey(request.method, route);
    const deprecation = deprecationOf(version, operation);
    if (deprecation) outcome.deprecation = deprecationHeaders(deprecation, versionPageUrl(deps.publicUrl, api.slug, version.version));
    refuseIfRetired({ apiSlug: api.slug, version, operation, versions: api.versions, publicUrl: deps.publicUrl, now: Date.now() });
  }

  function proxy(
    request: IncomingRequest,
    url: URL,
    env: GatewayEnvironment,
    api: GatewayApi,
    remainder: string,
    requestId: string,
    trace: RequestTrace,
    clientId: string | null,
  ) {
    return deps.upstreams.forward({
      request,
      url,
      env: env.slug,
      api: api.slug,
      remainder,
      clientId,
      clientAddress: deps.addressOf(request),
      requestId,
      trace,
    });
  }

  async function serveApi(
    request: IncomingRequest,
    url: URL,
    env: GatewayEnvironment,
    api: GatewayApi,
    remainder: string,
    requestId: string,
    trace: RequestTrace,
    outcome: Outcome,
  ) {
    if (api.kind === "TOKEN") throw notFound(`"${api.slug}" is served at ${url.origin}/gw/${env.slug}/oauth2/token.`);
    const version = selectVersion(api.versions, remainder);
    if (api.kind === "PROXY") {
      // The route is the document's alone: known before the caller is, so a refusal carries the operation's deprecation too.
      outcome.route = proxiedRoute(version, remainder);
      applyLifecycle(request, api, version, outcome, outcome.route);
    } else applyLifecycle(request, api, version, outcome);
    // A public proxied API is open to anyone: no token, and so no client to grant, scope or rate-limit.
    if (api.kind === "PROXY" && api.isPublic) return proxy(request, url, env, api, remainder, requestId, trace, null);
    const stage = trace.span?.stage("authenticate");
    let caller: Authenticated;
    try {
      caller = await authenticate(request, env, outcome);
    } catch (error) {
      stage?.end(toProblem(error).code);
      throw error;
    }
    stage?.end();
    authorizeApi(env, api, caller);
    const table = routeTables.get(api.kind);
    if (table) {
      const { route, params } = table(request.method, remainder);
      outcome.route = route.path;
      applyLifecycle(request, api, version, outcome, route.path);
      authorizeScope(env, api, caller, route.scope);
      await rateLimit(env, caller, outcome, trace);
      const call = { request, url, params, env, caller: { clientId: caller.token.clientId, scopes: caller.token.scopes }, requestId };
      return route.handle(call);
    }
    if (api.kind !== "PROXY") throw notFound(`The API "${api.slug}" is not served by this gateway.`);
    authorizeAnyScope(env, api, caller);
    await rateLimit(env, caller, outcome, trace);
    return proxy(request, url, env, api, remainder, requestId, trace, caller.token.clientId);
  }

  async function route(request: IncomingRequest, url: URL, path: string, requestId: string, trace: RequestTrace, outcome: Outcome): Promise<PlainResponse> {
    const notServed = methodNotServed(request.method);
    if (notServed) throw notServed;
    const target = parseTarget(path);
    if (!target) throw notFound(`Gateway URLs look like /gw/{environment}/{api}/... ${await environmentList(directory)}`);
    const env = await directory.environment(target.envSlug);
    if (!env) throw notFound(`There is no environment "${target.envSlug}". ${await environmentList(directory)}`);
    outcome.env = env;
    const servicePath = `${target.apiSlug}${target.remainder}`;
    if (target.apiSlug === "oauth2" || target.apiSlug === ".well-known") {
      // Usage is charted per catalog API, and the token endpoints are the environment's token API.
      outcome.api = (await directory.apis(env.id)).find((api) => api.kind === "TOKEN")?.slug ?? "token-service";
      if (!isTokenServicePath(servicePath)) throw notFound(`The token service of "${env.slug}" has no endpoint /${servicePath}.`);
      outcome.tokenService = true;
      outcome.route = `/${servicePath}`;
      return tokenService(request, url, env, servicePath, outcome);
    }
    const api = target.apiSlug ? await directory.api(env.id, target.apiSlug) : undefined;
    if (!api) {
      const missing = target.apiSlug ? `There is no API "${target.apiSlug}" in environment "${env.slug}".` : `Name an API: /gw/${env.slug}/{api}/...`;
      throw notFound(`${missing} ${apiList(env, await directory.apis(env.id))}`);
    }
    outcome.api = api.slug;
    return serveApi(request, url, env, api, target.remainder, requestId, trace, outcome);
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
