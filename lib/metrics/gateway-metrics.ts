import type { Registry } from "prom-client";
import { type BoundCounter, type BoundHistogram, boundCounter, boundHistogram } from "./bound-series";

/** Seconds; sized for a gateway, whose answers take from half a millisecond to the upstream timeout. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

type RouteSeries = { latency: BoundHistogram; byClass: (BoundCounter | undefined)[] };

export type UpstreamFailure = "error" | "timeout" | "unavailable";

/**
 * What the gateway counts. Labels hold only bounded values: environment and
 * API slugs from the catalog, route templates, status classes, reason codes;
 * never raw paths, ids or client ids. An empty label means "not known": an
 * unknown environment or API is answered before either is resolved.
 */
export type GatewayMetrics = {
  request(env: string, api: string, route: string, status: number, seconds: number): void;
  tokenIssued(env: string): void;
  tokenRefused(env: string, reason: string): void;
  upstreamFailed(env: string, api: string, kind: UpstreamFailure): void;
  /** Set-Cookie fields of an upstream's answer dropped for naming one of the portal's cookies */
  upstreamCookiesDropped(env: string, api: string, count: number): void;
  /** a lookup in one of the gateway's caches */
  cacheLookup(cache: string, hit: boolean): void;
};

/** Binds each label combination once and keeps it; for counters that move at most once per token request. */
function memo<T>(bind: (...values: string[]) => T): (...values: string[]) => T {
  const bound = new Map<string, T>();
  return (...values) => {
    const key = values.join("\n");
    let found = bound.get(key);
    if (found === undefined) {
      found = bind(...values);
      bound.set(key, found);
    }
    return found;
  };
}

export function createGatewayMetrics(registry: Registry): GatewayMetrics {
  const requests = boundCounter(registry, {
    name: "gatehouse_gateway_requests_total",
    help: "Gateway requests answered, by environment, API, route template and status class.",
    labelNames: ["env", "api", "route", "status_class"],
  });
  const latency = boundHistogram(registry, {
    name: "gatehouse_gateway_request_duration_seconds",
    help: "Time from a gateway request's arrival to its answer, by environment, API and route template.",
    labelNames: ["env", "api", "route"],
    buckets: LATENCY_BUCKETS,
  });
  const tokensIssued = memo(
    boundCounter(registry, { name: "gatehouse_tokens_issued_total", help: "Access tokens issued, by environment.", labelNames: ["env"] }).bind,
  );
  const tokensRefused = memo(
    boundCounter(registry, {
      name: "gatehouse_tokens_refused_total",
      help: "Token requests refused, by environment and OAuth error code.",
      labelNames: ["env", "reason"],
    }).bind,
  );
  const upstreamFailures = memo(
    boundCounter(registry, {
      name: "gatehouse_upstream_failures_total",
      help: "Proxied requests whose upstream could not be reached (error), did not answer in time (timeout) or had no target in service (unavailable).",
      labelNames: ["env", "api", "kind"],
    }).bind,
  );
  const cookiesDropped = memo(
    boundCounter(registry, {
      name: "gatehouse_upstream_cookies_dropped_total",
      help: "Set-Cookie fields of upstream answers dropped because they named a portal cookie (next-auth.*, theme, __Host-*, __Secure-*), by environment and API.",
      labelNames: ["env", "api"],
    }).bind,
  );
  const cacheLookups = boundCounter(registry, {
    name: "gatehouse_cache_lookups_total",
    help: "Lookups in the gateway's caches, by cache and result.",
    labelNames: ["cache", "result"],
  }).bind;
  // Nested maps, so that finding a request's series allocates nothing.
  const routes = new Map<string, Map<string, Map<string, RouteSeries>>>();
  function routeSeries(env: string, api: string, route: string): RouteSeries {
    let apis = routes.get(env);
    if (!apis) routes.set(env, (apis = new Map()));
    let templates = apis.get(api);
    if (!templates) apis.set(api, (templates = new Map()));
    let series = templates.get(route);
    if (!series) templates.set(route, (series = { latency: latency.bind(env, api, route), byClass: [] }));
    return series;
  }
  const caches = new Map<string, { hit: BoundCounter; miss: BoundCounter }>();
  function cacheSeries(cache: string) {
    let found = caches.get(cache);
    if (!found) caches.set(cache, (found = { hit: cacheLookups(cache, "hit"), miss: cacheLookups(cache, "miss") }));
    return found;
  }

  return {
    request(env, api, route, status, seconds) {
      const series = routeSeries(env, api, route);
      series.latency.observe(seconds);
      const index = Math.min(4, Math.max(0, Math.floor(status / 100) - 1));
      (series.byClass[index] ??= requests.bind(env, api, route, STATUS_CLASSES[index]!)).inc();
    },
    tokenIssued: (env) => tokensIssued(env).inc(),
    tokenRefused: (env, reason) => tokensRefused(env, reason).inc(),
    upstreamFailed: (env, api, kind) => upstreamFailures(env, api, kind).inc(),
    upstreamCookiesDropped: (env, api, count) => cookiesDropped(env, api).inc(count),
    cacheLookup(cache, hit) {
      const series = cacheSeries(cache);
      (hit ? series.hit : series.miss).inc();
    },
  };
}
