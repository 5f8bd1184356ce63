import type { Registry } from "prom-client";
import { type BoundCounter, boundCounter } from "../../../metrics/bound-series";

export type ResponseCacheEvent = "hit" | "miss" | "stored";

/** Counts the response cache's hits, misses (calls sent to the upstream) and answers stored, by environment and API. */
export type ResponseCacheMetrics = { count(event: ResponseCacheEvent, env: string, api: string): void };

export function createResponseCacheMetrics(registry: Registry): ResponseCacheMetrics {
  const counters = {
    hit: boundCounter(registry, {
      name: "gatehouse_response_cache_hits_total",
      help: "Proxied GET and HEAD calls answered from the response cache, by environment and API.",
      labelNames: ["env", "api"],
    }),
    miss: boundCounter(registry, {
      name: "gatehouse_response_cache_misses_total",
      help: "Proxied GET and HEAD calls under a response cache policy that went to the upstream (nothing kept, stale, or revalidated), by environment and API.",
      labelNames: ["env", "api"],
    }),
    stored: boundCounter(registry, {
      name: "gatehouse_response_cache_stores_total",
      help: "Upstream answers the response cache stored, by environment and API.",
      labelNames: ["env", "api"],
    }),
  };
  // By event, environment and API in nested maps, so that a hit builds no key text to find its series.
  const bound: Record<ResponseCacheEvent, Map<string, Map<string, BoundCounter>>> = { hit: new Map(), miss: new Map(), stored: new Map() };
  return {
    count(event, env, api) {
      let apis = bound[event].get(env);
      if (!apis) bound[event].set(env, (apis = new Map()));
      let series = apis.get(api);
      if (!series) apis.set(api, (series = counters[event].bind(env, api)));
      series.inc();
    },
  };
}
