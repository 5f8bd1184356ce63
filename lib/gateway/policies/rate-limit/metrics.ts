import type { Registry } from "prom-client";
import { boundCounter } from "../../../metrics/bound-series";

/** What the rate-limit stage counts; labels are catalog slugs only, never client ids. */
export type RateLimitMetrics = {
  refused(env: string, api: string): void;
};

export function createRateLimitMetrics(registry: Registry): RateLimitMetrics {
  const refusals = boundCounter(registry, {
    name: "gatehouse_rate_limit_refusals_total",
    help: "Requests refused with 429 by a client's rate limit, by environment and API.",
    labelNames: ["env", "api"],
  });
  return { refused: (env, api) => refusals.bind(env, api).inc() };
}
