import cluster from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import { processMetrics } from "./registry";

/** A worker's question to the primary, and its answer: the exposition of every worker together. */
type Ask = { type: "gatehouse:metrics?"; id: number };
type Answer = { type: "gatehouse:metrics"; id: number; text?: string; error?: string };

/** prom-client's own timeout for a worker's registry is 5 s; an answer later than that never comes. */
const ANSWER_WITHIN_MS = 6_000;

/**
 * In a gateway worker: lets the primary read this process's registry. prom-client
 * answers the primary's requests once an AggregatorRegistry is built in the worker.
 */
export function offerMetricsToPrimary(): void {
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([processMetrics().registry]);
}

/**
 * In the primary: the exposition of every worker's registry, counters and histograms
 * summed, and the answer to a worker asked for `/metrics` on the public port.
 */
export function aggregateWorkerMetrics(): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  const collect = () => aggregator.clusterMetrics();
  cluster.on("message", (worker, message: Ask | undefined) => {
    if (message?.type !== "gatehouse:metrics?") return;
    const reply = (answer: Omit<Answer, "type" | "id">) =>
      worker.isConnected() && worker.send({ type: "gatehouse:metrics", id: message.id, ...answer } satisfies Answer);
    collect().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
  return collect;
}

let asked = 0;
const waiting = new Map<number, (answer: Answer) => void>();

/** In a gateway worker: every worker's metrics together, as the primary aggregates them. */
export function metricsOfAllProcesses(): Promise<string> {
  if (waiting.size === 0) process.on("message", receive);
  const id = ++asked;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle({ type: "gatehouse:metrics", id, error: "the primary did not answer" }), ANSWER_WITHIN_MS);
    const settle = (answer: Answer) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (waiting.size === 0) process.off("message", receive);
      if (answer.text === undefined) reject(new Error(answer.error));
      else resolve(answer.text);
    };
    waiting.set(id, settle);
    process.send?.({ type: "gatehouse:metrics?", id } satisfies Ask);
  });
}

function receive(message: Answer | undefined): void {
  if (message?.type === "gatehouse:metrics") waiting.get(message.id)?.(message);
}
