import { Gauge, type Registry } from "prom-client";
import { type BoundCounter, boundCounter } from "../../../metrics/bound-series";

/** One API's series in one environment, bound once per connection so that a message costs one addition. */
export type WebsocketSeries = {
  opened(): void;
  closed(): void;
  /** messages from the client to the upstream */
  messagesIn: BoundCounter;
  /** messages from the upstream to the client */
  messagesOut: BoundCounter;
};

/** What the WebSocket policy counts, by environment and API slug (bounded, as every gateway label is). */
export type WebsocketMetrics = { series(env: string, api: string): WebsocketSeries };

export function createWebsocketMetrics(registry: Registry): WebsocketMetrics {
  const open = new Gauge({
    name: "gatehouse_websocket_connections",
    help: "WebSocket connections open through this process's gateway, by environment and API.",
    labelNames: ["env", "api"],
    registers: [registry],
  });
  const messages = boundCounter(registry, {
    name: "gatehouse_websocket_messages_total",
    help: "WebSocket messages passed through the gateway, by environment, API and direction (in: from the client, out: to it).",
    labelNames: ["env", "api", "direction"],
  });
  return {
    series: (env, api) => ({
      opened: () => open.inc({ env, api }),
      closed: () => open.dec({ env, api }),
      messagesIn: messages.bind(env, api, "in"),
      messagesOut: messages.bind(env, api, "out"),
    }),
  };
}
