import { collectDefaultMetrics, Registry } from "prom-client";
import { createGatewayMetrics, type GatewayMetrics } from "./gateway-metrics";

type ProcessMetrics = { registry: Registry; gateway: GatewayMetrics };

let instance: ProcessMetrics | undefined;

/** The process's one registry: Node's default process metrics and the gateway's own. */
export function processMetrics(): ProcessMetrics {
  if (!instance) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    instance = { registry, gateway: createGatewayMetrics(registry) };
  }
  return instance;
}
