import { Gauge, type Registry } from "prom-client";
import type { CircuitState, TargetHealth } from "../upstreams/target-state";
import type { UpstreamHealth } from "../upstreams/upstream-set";

const CIRCUIT_VALUES: Record<CircuitState, number> = { closed: 0, "half-open": 1, open: 2 };

/**
 * Each target's state, read from the upstreams when `/metrics` is scraped, so the
 * request path pays nothing for it. Targets are the registered URLs: a bounded set.
 */
export function registerUpstreamGauges(registry: Registry, read: () => UpstreamHealth[]): void {
  const gauge = (name: string, help: string, value: (target: TargetHealth) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["env", "api", "target"],
      registers: [registry],
      collect() {
        this.reset();
        for (const upstream of read()) {
          for (const target of upstream.targets) this.set({ env: upstream.env, api: upstream.api, target: target.url }, value(target));
        }
      },
    });
  gauge(
    "gatehouse_upstream_target_healthy",
    "1 when an upstream target takes calls in this process; 0 when it is failing its health check, ejected, drained (weight 0) or behind an open circuit.",
    (target) => (target.available ? 1 : 0),
  );
  gauge(
    "gatehouse_upstream_target_circuit_state",
    "Each upstream target's circuit breaker as this process sees it: 0 closed, 1 half-open, 2 open.",
    (target) => CIRCUIT_VALUES[target.circuit],
  );
}
