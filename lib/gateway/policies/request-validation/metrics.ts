import type { Registry } from "prom-client";
import { type BoundCounter, boundCounter } from "../../../metrics/bound-series";

export type ValidationMode = "enforce" | "report";

/** Counts the calls that failed request validation, by API, route template and the mode that checked them. */
export type RequestValidationMetrics = { failed(api: string, route: string, mode: ValidationMode): void };

export function createRequestValidationMetrics(registry: Registry): RequestValidationMetrics {
  const failures = boundCounter(registry, {
    name: "gatehouse_request_validation_failures_total",
    help: "Proxied calls that failed validation against their operation in the API's OpenAPI document, by API, route template and mode (enforce refused them, report forwarded them).",
    labelNames: ["api", "route", "mode"],
  });
  const bound = new Map<string, BoundCounter>();
  return {
    failed(api, route, mode) {
      const key = `${api}\n${route}\n${mode}`;
      let series = bound.get(key);
      if (!series) bound.set(key, (series = failures.bind(api, route, mode)));
      series.inc();
    },
  };
}
