import type { Registry } from "prom-client";
import { boundCounter } from "../../../metrics/bound-series";

/** What the quota stage counts; labels are catalog slugs only, never client or subscription ids. */
export type QuotaMetrics = {
  refused(env: string, api: string, plan: string): void;
};

export function createQuotaMetrics(registry: Registry): QuotaMetrics {
  const refusals = boundCounter(registry, {
    name: "gatehouse_quota_refusals_total",
    help: "Requests refused with 429 quota-exceeded by a subscription's quota, by environment, API and plan.",
    labelNames: ["env", "api", "plan"],
  });
  return { refused: (env, api, plan) => refusals.bind(env, api, plan).inc() };
}
