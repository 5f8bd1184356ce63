// autocannon, the load generator where wrk is missing: it runs in the bench's own process, and
// takes from the measured servers a larger share of the cores than wrk does (docs/benchmarks.md).
import { createRequire } from "node:module";
import { QUANTILES, type LoadGenerator, type RawRequest, type Target } from "./target";

type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: { setupRequest: (request: RawRequest) => RawRequest }[];
};
type AutocannonResult = { requests: { total: number }; duration: number; non2xx: number; errors: number; timeouts: number };
type AutocannonRun = Promise<AutocannonResult> & {
  on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): void;
};
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => AutocannonRun;

function options({ draw, once: _once, ...request }: Target, connections: number, seconds: number): AutocannonOptions {
  return {
    ...request,
    connections,
    duration: seconds,
    ...(draw ? { requests: [{ setupRequest: (sent: RawRequest) => ({ ...sent, ...draw() }) }] } : {}),
  };
}

/** The value below which `fraction` of the sorted values lie (nearest rank). */
function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

export const autocannonGenerator: LoadGenerator = {
  async run(target, connections, seconds) {
    const latenciesMs: number[] = [];
    const run = autocannon(options(target, connections, seconds));
    run.on("response", (_client, _status, _bytes, responseTimeMs) => latenciesMs.push(responseTimeMs));
    const result = await run;
    latenciesMs.sort((a, b) => a - b);
    return {
      requests: result.requests.total,
      seconds: result.duration,
      failed: result.non2xx + result.errors + result.timeouts,
      latencyQuantilesMs: Array.from({ length: QUANTILES }, (_, index) => percentile(latenciesMs, (index + 1) / QUANTILES)),
    };
  },
};
