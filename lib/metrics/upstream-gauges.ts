import { Gauge, type Registry } from "prom-client";
import type { CircuitState, TargetHealth } from "../upstreams/target-state";
import type { UpstreamHealth } from "../upstreams/upstream-set";

const CIRCUIT_VALUES: Record<CircuitState, number> = { closed: 0, "half-open": 1, open: 2 };

/**
 * Each target's state, read from the upstreams when `/metrics` is scraped, so the
 * request path pays nothing for it. Targets are the registered URLs: a bounded set.
 */
export function registerUpstreamGauges(registry: Registry, read: () => UpstreamHealth[]): void {
  // `aggregator`: how a gateway of several processes reports them together (AggregatorRegistry).
  const gauge = (name: string, help: string, aggregator: "min" | "max", value: (target: TargetHealth) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["env", "api", "target"],
      registers: [registry],
      aggregator,
      collect() {
        this.reset();
        for (const upstream of read()) {
          for (const target of upstream.targets) this.set({ env: upstream.env, api: upstream.api, target: target.url }, value(target));
        }
      },
    });
  gauge(
    "gatehouse_upstream_target_healthy",
    "1 when an upstream target takes calls in this process (in every process of a gateway of several); 0 when it is failing its health check, ejected, drained (weight 0) or behind an open circuit.",
    "min",
    (target) => (target.available ? 1 : 0),
  );
  gauge(
    "gatehouse_upstream_target_circuit_state",
    "Each upstream target's circuit breaker as this process sees it (the most open of a gateway's processes): 0 closed, 1 half-open, 2 open.",
    "max",
    (target) => CIRCUIT_VALUES[target.circuit],
  );
}
