import "server-only";
import type { Logger } from "pino";
import type { BuiltInRoute } from "../built-in-apis/route";
import type { ApiKind } from "../db";
import type { IncomingRequest, PlainResponse } from "../http/message";
import { canonicalPath } from "../http/canonical-path";
import { PROBLEMS } from "../http/problem-types";
import { requestIdFrom } from "../http/request-id";
import type { GatewayMetrics } from "../metrics/gateway-metrics";
import type { TokenService } from "../oauth/token-service";
import type { GatewayTracer } from "../tracing/tracer";
import { addDecidedFields, refusalAnswer } from "./answer";
import type { Cors } from "./cors";
import type { GatewayDirectory } from "./directory";
import { createLocator, type Location, type Locator } from "./locate";
import { collect, type Decided, type GatewayCall, type Located, runStages, type Stage, unanswered } from "./pipeline";
import { type Authenticator, createAuthenticationStage } from "./policies/authentication/stage";
import { authorizationStage } from "./policies/authorization/stage";
import { createLifecycleStage } from "./policies/lifecycle/stage";
import { createQuotaStage, type QuotaCheck } from "./policies/quota/stage";
import { createRateLimitStage, type RateLimitCheck } from "./policies/rate-limit/stage";
import type { RequestValidationMetrics } from "./policies/request-validation/metrics";
import { createRequestValidationStage } from "./policies/request-validation/stage";
import { createResponseCacheStage, type ResponseCache } from "./policies/response-cache/stage";
import { createUpstreamStage, type Upstreams } from "./policies/upstream/stage";
import { websocketRouteStage } from "./policies/websocket/route-stage";
import { createCallRecords, type RecordedRequest } from "./record";
import type { RequestRecorder } from "./request-log";
import { requestTrace } from "./request-trace";
import { createRouteTable } from "./route-match";
import { createServiceStage } from "./service-stage";

export type GatewayDeps = {
  directory: GatewayDirectory;
  log: Logger;
  tokenService: TokenService;
  authenticate: Authenticator;
  rateLimit: RateLimitCheck;
  /** counts a call to an API with plans against its subscription's quota (lib/gateway/policies/quota) */
  quota: QuotaCheck;
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

/** What a proxied answer whose body the upstream broke off is recorded as: the client got its status, then a cut connection. */
const BROKEN_ANSWER = "upstream-invalid-response";

export type Gateway = (request: IncomingRequest) => Promise<PlainResponse>;

/** A request before it is located: what every stage reads of it but where it leads. */
type Asked = Omit<GatewayCall, "at">;

/**
 * Admits a WebSocket handshake: locates it and runs the handshake's stages, collecting their
 * decisions into `decided`; returns where it leads, or throws the refusal.
 */
export type Admission = (asked: Asked, decided: Decided) => Promise<Located>;

/**
 * The gateway's stages, each its policy's (`lib/gateway/policies/<name>/stage.ts`), and the two
 * orders they run in. ARCHITECTURE.md ("A gateway request") lists the call's order.
 */
function createPipelines(deps: GatewayDeps) {
  const lifecycle = createLifecycleStage(deps.publicUrl);
  const authentication = createAuthenticationStage(deps.authenticate);
  const rateLimit = createRateLimitStage(deps.rateLimit);
  const quota = createQuotaStage(deps.quota);
  const call: readonly Stage[] = [
    lifecycle,
    authentication,
    authorizationStage,
    rateLimit,
    quota,
    createServiceStage(deps.tokenService),
    createRequestValidationStage({
      metrics: deps.requestValidationMetrics,
      maxBodyBytes: (env, api) => deps.upstreams.set.get(env, api)?.policy.maxRequestBodyBytes,
    }),
    createResponseCacheStage(deps.responseCache),
    createUpstreamStage(deps.upstreams, deps.addressOf),
  ];
  /** A handshake's: its route must have a WebSocket policy, checked before its caller is; its tunnel is the WebSocket policy's own. */
  const handshake: readonly Stage[] = [lifecycle, websocketRouteStage, authentication, authorizationStage, rateLimit, quota];
  const routeTables = new Map(Object.entries(deps.builtInRoutes).map(([kind, routes]) => [kind as ApiKind, createRouteTable(routes ?? [])]));
  return { locate: createLocator({ directory: deps.directory, routeTables }), call, handshake };
}

/** Locates a request, collecting what that decided into `decided`; throws the refusal of a path that leads nowhere. */
function located(locate: Locator, asked: Asked, decided: Decided): GatewayCall | Promise<GatewayCall> {
  const location = locate(asked.request, asked.path);
  return location instanceof Promise ? location.then((found) => locatedCall(found, asked, decided)) : locatedCall(location, asked, decided);
}

function locatedCall({ at, ...location }: Location, asked: Asked, decided: Decided): GatewayCall {
  collect(decided, location);
  return Object.assign({}, asked, { at: at! });
}

/** The admission of the gateway `deps` build: what the WebSocket handshake goes through. */
export function createGatewayAdmission(deps: GatewayDeps): Admission {
  const { locate, handshake } = createPipelines(deps);
  return async (asked, decided) => {
    const call = await located(locate, asked, decided);
    await runStages(handshake, call, decided);
    return call.at;
  };
}

/**
 * The gateway, free of React and Next: each request is located, then goes through the call's
 * stages in their order until one answers or refuses it, and is recorded from what they decided.
 */
export function createGateway(deps: GatewayDeps): Gateway {
  const { log, metrics } = deps;
  const { locate, call: stages } = createPipelines(deps);
  const records = createCallRecords(deps);

  async function serve(asked: Asked, decided: Decided): Promise<PlainResponse> {
    const found = located(locate, asked, decided);
    return (await runStages(stages, found instanceof Promise ? await found : found, decided)) ?? unanswered(asked);
  }

  return async function handleGatewayRequest(request) {
    const startedAt = performance.now();
    const requestId = requestIdFrom(request.headers);
    const trace = requestTrace(request, deps.tracer);
    const url = new URL(request.url);
    // Production's server has made the path canonical already; `next dev` passes it as Next parsed it.
    let path = url.pathname;
    const decided: Decided = {};
    let response: PlainResponse;
    let problem: string | undefined;
    try {
      path = canonicalPath(url.pathname);
      response = deps.cors?.preflight(request) ?? (await serve({ request, url, path, requestId, trace }, decided));
      addDecidedFields(response.headers, decided);
      response.headers["x-request-id"] = requestId;
    } catch (error) {
      const refused = refusalAnswer(error, decided, { instance: path, requestId, trace, log, metrics, failed: "gateway request failed" });
      response = refused.response;
      problem = refused.refusal.code;
    }
    const latencyMs = performance.now() - startedAt;
    // Upstream answers included: a browser must not guess a type the API did not declare.
    response.headers["x-content-type-options"] = "nosniff";
    deps.cors?.expose(request, response);
    const recorded: RecordedRequest = { at: new Date(), requestId, trace, method: request.method, path };
    const record = (status: number, ended: string | undefined) => {
      const end = { status, latencyMs, problem: ended };
      records.answered(recorded, decided, end);
      records.logged(recorded, decided, end);
    };
    const body = response.body;
    const ended = body !== null && typeof body === "object" && "ended" in body ? body.ended : undefined;
    if (!ended) record(response.status, problem);
    // A streamed answer is recorded once it is over, as what the client got: a body broken off is a 502.
    else
      void ended.then((end) => {
        if (end !== "broken") return record(response.status, problem);
        metrics.upstreamFailed(decided.env?.slug ?? "", decided.api ?? "", "error");
        record(PROBLEMS[BROKEN_ANSWER].status, BROKEN_ANSWER);
      });
    return response;
  };
}
