import "server-only";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { CircuitChange, UpstreamSet } from "./upstream-set";

type CircuitMessage = CircuitChange & { from: string };

function isCircuitMessage(value: unknown): value is CircuitMessage {
  const message = value as Partial<CircuitMessage> | null;
  return (
    typeof message?.from === "string" &&
    typeof message.env === "string" &&
    typeof message.api === "string" &&
    typeof message.target === "string" &&
    (message.to === "open" || message.to === "closed")
  );
}

/**
 * Tells every gateway process on one Redis when a circuit of this process's opens or closes,
 * over pub/sub on `{keyPrefix}upstream-circuits`, and makes this process follow theirs. A
 * message lost while Redis is away is not replayed: each process's own circuit still opens
 * on the failures it sees. Returns what stops it.
 */
export function shareCircuits(input: { set: UpstreamSet; redisUrl: string; keyPrefix: string; log: Pick<Logger, "warn"> }): () => Promise<void> {
  const { set, redisUrl, keyPrefix, log } = input;
  const channel = `${keyPrefix}upstream-circuits`;
  const self = randomUUID();
  const warn = (error: Error) => log.warn({ err: error.message }, "redis unavailable for upstream circuit states");
  const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 500, connectionName: `${keyPrefix}upstream-circuits` });
  const subscriber = new Redis(redisUrl, { connectionName: `${keyPrefix}upstream-circuits-subscriber` });
  publisher.on("error", warn);
  subscriber.on("error", warn);
  subscriber.subscribe(channel).catch(warn);
  subscriber.on("message", (_channel: string, text: string) => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (isCircuitMessage(message) && message.from !== self) set.learnCircuit(message);
  });
  set.watchCircuits((change) => {
    publisher.publish(channel, JSON.stringify({ ...change, from: self } satisfies CircuitMessage)).catch(warn);
  });
  return async () => {
    subscriber.disconnect();
    await publisher.quit().catch(() => publisher.disconnect());
  };
}
