import { BroadcastChannel } from "node:worker_threads";
import type { UpstreamHealth } from "./upstream-set";

const CHANNEL = "gatehouse:upstream-health";
/** How long the console waits for the gateway: it answers at once, or is not in this process. */
const ANSWER_WITHIN_MS = 500;

type Question = { ask: string };
type Answer = { answer: string; health: UpstreamHealth[] };

/**
 * Lets the console, which `npm start` runs in a worker thread, read the health the
 * gateway on the main thread keeps. A channel within the process, so nothing is stored.
 */
export function publishUpstreamHealth(read: () => UpstreamHealth[]): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const question = event.data as Question | Answer;
    if ("ask" in question) channel.postMessage({ answer: question.ask, health: read() } satisfies Answer);
  };
}

/** This process's gateway's view of the API's upstreams; empty when no gateway serves in this process. */
export function readUpstreamHealth(api: string): Promise<UpstreamHealth[]> {
  const channel = new BroadcastChannel(CHANNEL);
  const ask = crypto.randomUUID();
  return new Promise<UpstreamHealth[]>((resolve) => {
    const timer = setTimeout(() => resolve([]), ANSWER_WITHIN_MS);
    channel.onmessage = (event) => {
      const message = event.data as Question | Answer;
      if (!("answer" in message) || message.answer !== ask) return;
      clearTimeout(timer);
      resolve(message.health.filter((upstream) => upstream.api === api));
    };
    channel.postMessage({ ask } satisfies Question);
  }).finally(() => channel.close());
}
