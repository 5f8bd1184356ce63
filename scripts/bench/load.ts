// The load: autocannon over CONNECTIONS connections; every request of the mix is
// drawn at random when it is sent (60 % list pages, a quarter of them with a
// cursor; 30 % single reads; 10 % updates), each from a random client with its own
// token. The proxy workload's load is a GET of an item of a proxied API, each from
// a random client. CPU and RSS of the server's process are read from /proc around the run.
// Latency percentiles come from every response's own time, to the microsecond:
// autocannon's summary rounds them down to whole milliseconds.
import { createRequire } from "node:module";
import { setTimeout } from "node:timers/promises";
import { BENCH_ENV, CONNECTIONS, ROUNDS, SECONDS, WARMUP_SECONDS } from "./options";
import { cpuSeconds, rssMegabytes, type Server } from "./processes";
import { type Measurement, row } from "./report";
import type { BenchClient } from "./workload";

type RawRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
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

export type Target = Omit<AutocannonOptions, "connections" | "duration">;

const BASE = "/gw/sso-qa/notifications/v1/notifications";
const STATUSES = ["read", "unread", "archived"];

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** One request of the workload's mix, drawn at random. */
export function mixRequest(clients: readonly BenchClient[]): RawRequest {
  const client = pick(clients);
  const authorization = `Bearer ${client.token}`;
  const draw = Math.random();
  if (draw < 0.6) {
    const cursor = Math.random() < 0.25 ? `&cursor=${pick(client.cursors)}` : "";
    return { method: "GET", path: `${BASE}?limit=20${cursor}`, headers: { authorization } };
  }
  const path = `${BASE}/${pick(client.notificationIds)}`;
  if (draw < 0.9) return { method: "GET", path, headers: { authorization } };
  return { method: "PUT", path, headers: { authorization, "content-type": "application/json" }, body: JSON.stringify({ status: pick(STATUSES) }) };
}

export function mixTarget(origin: string, clients: readonly BenchClient[]): Target {
  return { url: origin, requests: [{ setupRequest: (request) => ({ ...request, ...mixRequest(clients) }) }] };
}

/** GETs of `items/{0..paths-1}` through `api`, the proxied API's slug (a server that is not the gateway answers the same path), each with one of the clients' tokens. */
export function proxyTarget(origin: string, api: string, clients: readonly { token: string }[], paths = 10_000): Target {
  const path = () => `/gw/${BENCH_ENV}/${api}/items/${Math.floor(Math.random() * paths)}`;
  return {
    url: origin,
    requests: [{ setupRequest: (request) => ({ ...request, method: "GET", path: path(), headers: { authorization: `Bearer ${pick(clients).token}` } }) }],
  };
}

/** POSTs of `body` (JSON) to `items` through `api`, each with one of the clients' tokens. */
export function proxyPostTarget(origin: string, api: string, clients: readonly { token: string }[], body: string): Target {
  const path = `/gw/${BENCH_ENV}/${api}/items`;
  return {
    url: origin,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          method: "POST",
          path,
          headers: { authorization: `Bearer ${pick(clients).token}`, "content-type": "application/json" },
          body,
        }),
      },
    ],
  };
}

/** One stretch of load against one server: what it answered, how fast, and what it used. */
type Sample = { requests: number; seconds: number; latenciesMs: number[]; failed: number; cpuSeconds: number; rssMb: number };

async function sample(server: Server, target: Target, seconds: number): Promise<Sample> {
  const pid = server.child.pid!;
  let rssMb = rssMegabytes(pid);
  const sampler = setInterval(() => (rssMb = Math.max(rssMb, rssMegabytes(pid))), 500);
  const cpuBefore = cpuSeconds(pid);
  const latenciesMs: number[] = [];
  const run = autocannon({ ...target, connections: CONNECTIONS, duration: seconds });
  run.on("response", (_client, _status, _bytes, responseTimeMs) => latenciesMs.push(responseTimeMs));
  const result = await run;
  clearInterval(sampler);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    latenciesMs,
    failed: result.non2xx + result.errors + result.timeouts,
    cpuSeconds: cpuSeconds(pid) - cpuBefore,
    rssMb: Math.max(rssMb, rssMegabytes(pid)),
  };
}

/** The value below which `fraction` of the sorted values lie (nearest rank). */
function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

function summarize(name: string, samples: readonly Sample[]): Measurement {
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  const latencies = samples.flatMap((s) => s.latenciesMs).sort((a, b) => a - b);
  const measurement = {
    name,
    rps: samples.reduce((sum, s) => sum + s.requests, 0) / seconds,
    roundRps: samples.map((s) => s.requests / s.seconds),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    failed: samples.reduce((sum, s) => sum + s.failed, 0),
    rssMb: Math.max(...samples.map((s) => s.rssMb)),
    cpuPercent: (samples.reduce((sum, s) => sum + s.cpuSeconds, 0) / seconds) * 100,
  };
  process.stderr.write(`${row(measurement)}\n`);
  return measurement;
}

/**
 * A pause before each measurement: without it, whichever contender followed the
 * upstream's own 50,000 req/s ran 8-10 % slower in every quick run of the proxy workload.
 */
const SETTLE_MS = 2_000;

export type Contender = { name: string; server: Server; target: Target };

/** The contenders' indexes in a random order (Fisher-Yates). */
export function shuffledIndexes(count: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * Warms each contender up, then measures them in turn for `rounds` rounds of
 * `seconds` each, pooling each one's rounds. Taking turns puts the machine's drift
 * (these are shared, noisy machines) on every contender alike rather than on
 * whichever happens to be measured last. With `shuffled`, each round takes them in a
 * new random order, so that what a fast contender leaves behind in the load
 * generator and the machine falls on every contender in turn rather than always on
 * the one measured after it (docs/benchmarks.md).
 */
export async function measureInTurns(
  contenders: readonly Contender[],
  { rounds = ROUNDS, seconds = SECONDS, shuffled = false }: { rounds?: number; seconds?: number; shuffled?: boolean } = {},
): Promise<Measurement[]> {
  for (const { target } of contenders) await autocannon({ ...target, connections: CONNECTIONS, duration: WARMUP_SECONDS });
  const samples = contenders.map((): Sample[] => []);
  for (let round = 1; round <= rounds; round++) {
    const order = shuffled ? shuffledIndexes(contenders.length) : contenders.map((_, index) => index);
    for (const index of order) {
      const { name, server, target } = contenders[index]!;
      process.stderr.write(`measuring ${name} for ${seconds} s (round ${round} of ${rounds})...\n`);
      await setTimeout(SETTLE_MS);
      samples[index]!.push(await sample(server, target, seconds));
    }
  }
  return contenders.map(({ name }, index) => summarize(name, samples[index]!));
}

/** Warms up, then measures `target` for SECONDS with CONNECTIONS connections. */
export async function measure(name: string, server: Server, target: Target): Promise<Measurement> {
  const [measurement] = await measureInTurns([{ name, server, target }], { rounds: 1 });
  return measurement!;
}
