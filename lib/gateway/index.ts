import "server-only";
import { processChanges } from "../caching/change-signal";
import { separateGatewayOrigin } from "../catalog/environment-urls";
import { config } from "../config";
import { createNotificationStore } from "../data-plane/notifications-for-connection";
import { dataPlane } from "../data-plane/process";
import { processKeys } from "../oauth/process-keys";
import { requestClientAddress } from "../http/client-address";
import { type IncomingRequest, toFetchResponse } from "../http/message";
import { processLimits } from "../limiters/limits";
import { createDatabaseQuotaCounter } from "../limiters/quota";
import { accessLog, log } from "../log";
import { processMetrics } from "../metrics/registry";
import { registerUpstreamGauges } from "../metrics/upstream-gauges";
import { publishUpstreamHealth } from "../upstreams/health-board";
import { shareCircuits } from "../upstreams/shared-circuits";
import { createNotificationRoutes } from "../notifications/operations";
import { createPageCache } from "../notifications/page-cache";
import { createAssertionVerifier } from "../oauth/client-assertions";
import { createClientAuthenticator, FAILURE_WINDOW_SECONDS } from "../oauth/client-authentication";
import { createRemoteKeySets } from "../oauth/remote-key-sets";
import { hashClientSecret } from "../oauth/client-secrets";
import { createApiKeyStates } from "../oauth/api-key-states";
import { createCredentialStates } from "../oauth/credential-states";
import { createRevocationList } from "../oauth/revoked-tokens";
import { createTokenService } from "../oauth/token-service";
import { createAgentGrants } from "../oauth/agent-grants";
import { createAgentRegistration, REGISTRATION_WINDOW_SECONDS } from "../oauth/agent-registration";
import { createAgentStore } from "../data-plane/agent-store";
import { createTokenVerifier } from "../oauth/token-verifier";
import { createLastUsedMarks } from "../oauth/last-used-marks";
import { createOtlpTracer } from "../tracing/otlp-tracer";
import { createAuthenticator } from "./policies/authentication/stage";
import { createDpopBinding } from "./policies/authentication/dpop";
import { createDpopNonces, createDpopVerifier } from "../oauth/dpop";
import { deriveKey } from "../oauth/derived-keys";
import { watchGatewayChanges } from "./change-watch";
import { createGatewayDirectory } from "./directory";
import { createMcpService, type McpService } from "./mcp/serve";
import { createMcpSessions } from "./mcp/sessions";
import { createGateway, createGatewayAdmission, type Gateway, type GatewayDeps } from "./handler";
import { createResponseCacheStore } from "./policies/response-cache/create-store";
import { createResponseCacheMetrics } from "./policies/response-cache/metrics";
import { createResponseCache } from "./policies/response-cache/stage";
import { createRequestValidationMetrics } from "./policies/request-validation/metrics";
import { createUpstreams } from "./policies/upstream/stage";
import { createRateLimitMetrics } from "./policies/rate-limit/metrics";
import { createRateLimitCheck } from "./policies/rate-limit/stage";
import { createQuotaMetrics } from "./policies/quota/metrics";
import { createQuotaCheck } from "./policies/quota/stage";
import { createCallRecords } from "./record";
import { createRequestRecorder } from "./request-log";
import { createWebsocketMetrics } from "./policies/websocket/metrics";
import { createConnectionPlaces } from "./policies/websocket/create-places";
import { createOpenConnections } from "./policies/websocket/open-connections";
import { createWebsocketStage, type WebsocketUpgrade } from "./policies/websocket/stage";
import { CLOSE_CODES } from "./policies/websocket/tunnel";
import { createPortalCors } from "./cors";

/**
 * How often open WebSocket connections are checked against their token's expiry and the
 * credential and revocation caches, which hear of a change within 1 s: a revoked credential's
 * connections close within the 2 s DESIGN §6 promises.
 */
const WEBSOCKET_SWEEP_MS = 1_000;

type ProcessGateway = {
  serve: Gateway;
  /** each API's MCP server, whose tool calls go through `serve` */
  mcp: McpService;
  /** WebSocket handshakes on the gateway's paths */
  upgrade: WebsocketUpgrade;
  /** Closes every tunnelled WebSocket with 1001, as the process stops. */
  closeConnections(): void;
  /** resolves once requests are traced, when tracing is configured; at once otherwise */
  ready: Promise<void>;
  /** Writes what is buffered (request log rows, credential use, spans) before the process stops. */
  flush(): Promise<void>;
};

function buildGateway(): ProcessGateway {
  const {
    publicUrl,
    authSecret,
    upstreamTimeoutMs,
    gatewayCacheMaxAgeMs,
    databaseUrl,
    trustedProxies,
    tracing,
    outboundAllowPrivate,
    redisUrl,
    redisKeyPrefix,
    responseCache: responseCacheLimits,
  } = config();
  const { connection, store } = dataPlane();
  const keys = processKeys();
  const metrics = processMetrics().gateway;
  const upstreams = createUpstreams({ timeoutMs: upstreamTimeoutMs, log, metrics });
  registerUpstreamGauges(processMetrics().registry, () => upstreams.set.health());
  publishUpstreamHealth(() => upstreams.set.health());
  // Gateway processes on one Redis open and close each target's circuit together.
  const stopSharingCircuits = redisUrl ? shareCircuits({ set: upstreams.set, redisUrl, keyPrefix: redisKeyPrefix, log }) : async () => undefined;
  const changes = processChanges();
  const directory = createGatewayDirectory(store, { maxAgeMs: gatewayCacheMaxAgeMs, onUpstreams: upstreams.set.configure, changes, log });
  const states = createCredentialStates({ store, maxAgeMs: gatewayCacheMaxAgeMs, changes, log });
  const revocations = createRevocationList({ store, maxAgeMs: gatewayCacheMaxAgeMs, changes, log });
  const changeWatch = watchGatewayChanges({ connection, databaseUrl, redisUrl, redisKeyPrefix, changes, log });
  // Shared with every instance through Redis when `REDIS_URL` is set, else this instance's own.
  const limits = processLimits("gateway");
  const keySets = createRemoteKeySets({ policy: { allowPrivate: outboundAllowPrivate } });
  const environmentSlugOf = async (id: string) => (await directory.environmentById(id))?.slug;
  const lastUsed = createLastUsedMarks({ store, log });
  const verify = createTokenVerifier({ keys, publicUrl, environmentSlugOf, onLookup: (hit) => metrics.cacheLookup("verified-tokens", hit) });
  const addressOf = (request: IncomingRequest) => requestClientAddress(request, trustedProxies);
  // DPoP proofs' jtis are shared with every instance through Redis, like assertions'; nonces need no storage.
  const dpop = createDpopVerifier({ seen: limits.seenOnce() });
  const dpopNonces = createDpopNonces(deriveKey(authSecret, "dpop-nonce"));
  const gatewayBase = config().gatewayPublicUrl ?? publicUrl;
  const publicUrlOf = (request: IncomingRequest) => `${gatewayBase}${new URL(request.url).pathname}`;
  const agentStore = createAgentStore(connection);
  const tokenService = createTokenService({
    directory,
    keys,
    states,
    revocations,
    authenticate: createClientAuthenticator({
      states,
      failures: limits.failureCounter(FAILURE_WINDOW_SECONDS),
      hashSecret: (secret) => hashClientSecret(secret, authSecret),
      verifyAssertion: createAssertionVerifier({ keySets, seen: limits.seenOnce(), publicUrl }),
      log,
    }),
    lastUsed,
    verify,
    addressOf,
    publicUrl,
    publicUrlOf,
    dpop,
    dpopNonces,
    agentGrants: createAgentGrants({ store: agentStore, keys, publicUrl, revocations }),
    registerAgent: createAgentRegistration({ store: agentStore, throttle: limits.failureCounter(REGISTRATION_WINDOW_SECONDS, "agent-registrations") }),
    log,
    metrics,
  });
  const recorder = createRequestRecorder({ log, accessLog, databaseUrl });
  const tracer = tracing && createOtlpTracer({ ...tracing, log });
  const deps: GatewayDeps = {
    directory,
    log,
    tokenService,
    authenticate: createAuthenticator({
      verify,
      revocations,
      states,
      lastUsed,
      apiKeys: createApiKeyStates({ store, hashKey: (key) => hashClientSecret(key, authSecret), maxAgeMs: gatewayCacheMaxAgeMs, changes, log }),
      dpop: createDpopBinding({ verify: dpop, nonces: dpopNonces, publicUrlOf }),
    }),
    rateLimit: createRateLimitCheck({ limiter: limits.rateLimiter(), metrics: createRateLimitMetrics(processMetrics().registry) }),
    quota: createQuotaCheck({
      counter: limits.quotaCounter(createDatabaseQuotaCounter((subscriptionId, periodStart, limit) => store.takeQuota(subscriptionId, periodStart, limit))),
      metrics: createQuotaMetrics(processMetrics().registry),
    }),
    recorder,
    metrics,
    builtInRoutes: { NOTIFICATIONS: createNotificationRoutes({ store: createNotificationStore(connection), pages: createPageCache() }) },
    upstreams,
    requestValidationMetrics: createRequestValidationMetrics(processMetrics().registry),
    responseCache: createResponseCache({
      store: createResponseCacheStore({ redisUrl, keyPrefix: redisKeyPrefix, maxBytes: responseCacheLimits.maxBytes, log }),
      metrics: createResponseCacheMetrics(processMetrics().registry),
      maxBodyBytes: responseCacheLimits.maxBodyBytes,
    }),
    addressOf,
    publicUrl,
    tracer,
    cors: separateGatewayOrigin(publicUrl) === undefined ? undefined : createPortalCors(new URL(publicUrl).origin),
  };
  const places = createConnectionPlaces({ redisUrl, keyPrefix: redisKeyPrefix, log });
  const connections = createOpenConnections(places);
  const stopSweep = connections.startSweep({ revocations, states, intervalMs: WEBSOCKET_SWEEP_MS, log });
  const upgrade = createWebsocketStage({
    admit: createGatewayAdmission(deps),
    upstreams: upstreams.set,
    connections,
    records: createCallRecords({ recorder, metrics }),
    metrics,
    websocketMetrics: createWebsocketMetrics(processMetrics().registry),
    addressOf,
    log,
    tracer,
  });
  const serve = createGateway(deps);
  return {
    serve,
    mcp: createMcpService({
      directory,
      documents: store,
      authenticate: deps.authenticate,
      gateway: serve,
      sessions: createMcpSessions(authSecret),
      publicUrl,
      origins: [new URL(publicUrl).origin, separateGatewayOrigin(publicUrl)].filter((origin) => origin !== undefined),
      log,
    }),
    upgrade,
    ready: tracer?.ready ?? Promise.resolve(),
    closeConnections: () => connections.closeAll(CLOSE_CODES.goingAway, "server shutting down"),
    async flush() {
      stopSweep();
      await Promise.all([changeWatch.stop(), recorder.flush(), lastUsed.flush(), upstreams.close(), tracer?.shutdown(), places.close(), stopSharingCircuits()]);
    },
  };
}

let instance: ProcessGateway | undefined;

/** The process's gateway, built on first use so that importing it reads no configuration. */
export function gateway(): Gateway {
  instance ??= buildGateway();
  return instance.serve;
}

/** The process's MCP servers, `/mcp/{env}/{api}` and their protected-resource metadata. */
export function gatewayMcp(): McpService {
  instance ??= buildGateway();
  return instance.mcp;
}

/** The process's WebSocket handshakes on gateway paths. */
export function gatewayUpgrade(): WebsocketUpgrade {
  instance ??= buildGateway();
  return instance.upgrade;
}

/** Closes the gateway's tunnelled WebSocket connections (1001), which would otherwise hold a stopping server open; a no-op when it never served. */
export function closeGatewayConnections(): void {
  instance?.closeConnections();
}

/** Resolves once the process's gateway serves as configured: with tracing, once its SDK has loaded. */
export function gatewayReady(): Promise<void> {
  instance ??= buildGateway();
  return instance.ready;
}

/** Writes what the gateway has buffered; a no-op when it never served. */
export async function flushGateway(): Promise<void> {
  await instance?.flush();
}

/** The gateway as a Fetch-API function, for Next's route handlers (`next dev`). */
export async function handleGatewayRequest(request: Request): Promise<Response> {
  await gatewayReady();
  return toFetchResponse(await gateway()(request));
}
