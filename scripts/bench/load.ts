// The load: wrk where the machine has it, autocannon otherwise (wrk.ts, autocannon.ts), over
// CONNECTIONS connections; every request of the mix is drawn at random (60 % list pages, a
// quarter of them with a cursor; 30 % single reads; 10 % updates), each from a random client
// with its own token. The proxy workload's load is a GET of an item of a proxied API, each from
// a random client. CPU and RSS of the server's process are read from /proc around the run.
// Latency percentiles pool every run's latency at each tenth of a percentile, weighted by the
// run's requests, to the microsecond: autocannon's summary rounds them down to whole milliseconds.
import { setTimeout } from "node:timers/promises";
import { autocannonGenerator } from "./autocannon";
import { BENCH_ENV, CONNECTIONS, FLOOR_STORED_PREFIX, ROUNDS, SECONDS, WARMUP_SECONDS } from "./options";
import { cpuSeconds, machineCpuSeconds, rssMegabytes, type Server } from "./processes";
import { onPath } from "./programs";
import { type Measurement, row } from "./report";
import { QUANTILES, type LoadGenerator, type RawRequest, type Run, type Target } from "./target";
import type { BenchClient } from "./workload";
import { wrkGenerator } from "./wrk";

/** wrk unless BENCH_LOAD_GENERATOR=autocannon or wrk is not installed, which the bench says once. */
function loadGenerator(): LoadGenerator {
  const wrk = process.env.BENCH_LOAD_GENERATOR === "autocannon" ? undefined : onPath("wrk");
  if (wrk) return wrkGenerator(wrk);
  if (process.env.BENCH_LOAD_GENERATOR !== "autocannon") process.stderr.write("wrk not found: the load comes from autocannon (apt-get install wrk)\n");
  return autocannonGenerator;
}

const generator = loadGenerator();

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
  return { url: origin, draw: () => mixRequest(clients) };
}

/** GETs of `items/{0..paths-1}` through `api`, the proxied API's slug (a server that is not the gateway answers the same path), each with one of the clients' tokens. */
export function proxyTarget(origin: string, api: string, clients: readonly { token: string }[], paths = 10_000): Target {
  const path = () => `/gw/${BENCH_ENV}/${api}/items/${Math.floor(Math.random() * paths)}`;
  return {
    url: origin,
    draw: () => ({ method: "GET", path: path(), headers: { authorization: `Bearer ${pick(clients).token}` } }),
  };
}

/** GETs of the minimal server's stored answer (proxy-floor.ts), as many paths as the cached GETs ask for, each with one of the clients' tokens. */
export function storedTarget(origin: string, clients: readonly { token: string }[], paths = 100): Target {
  return {
    url: origin,
    draw: () => ({
      method: "GET",
      path: `${FLOOR_STORED_PREFIX}items/${Math.floor(Math.random() * paths)}`,
      headers: { authorization: `Bearer ${pick(clients).token}` },
    }),
  };
}

/** POSTs of `body` (JSON) to `items` through `api`, each with one of the clients' tokens. */
export function proxyPostTarget(origin: string, api: string, clients: readonly { token: string }[], body: string): Target {
  const path = `/gw/${BENCH_ENV}/${api}/items`;
  return {
    url: origin,
    draw: () => ({ method: "POST", path, headers: { authorization: `Bearer ${pick(clients).token}`, "content-type": "application/json" }, body }),
  };
}

/** One stretch of load against one server: what it answered, how fast, and what it and the whole machine used. */
type Sample = Run & { cpuSeconds: number; rssMb: number; machine: MachineUse };

/** What every process on the machine used (`cpuSeconds`) over `seconds` of load. */
type MachineUse = { cpuSeconds: number; seconds: number };

const MACHINE_READING_MS = 250;

/**
 * Reads the machine's CPU every quarter second while a run goes on. The load is the run's last
 * `loadSeconds`: before them the generator draws and formats its requests, which would count the
 * bench's own work as the servers'.
 */
function readMachine(): { stop(loadSeconds: number): MachineUse } {
  const readings = [{ at: performance.now(), cpuSeconds: machineCpuSeconds() }];
  const read = () => readings.push({ at: performance.now(), cpuSeconds: machineCpuSeconds() });
  const timer = setInterval(read, MACHINE_READING_MS);
  return {
    stop(loadSeconds) {
      clearInterval(timer);
      read();
      const last = readings.at(-1)!;
      // A run shorter than a reading's interval is read over the two readings around it.
      const first = readings.find((reading) => reading.at >= last.at - loadSeconds * 1000 && reading !== last) ?? readings.at(-2)!;
      return { cpuSeconds: last.cpuSeconds - first.cpuSeconds, seconds: (last.at - first.at) / 1000 };
    },
  };
}

async function sample(server: Server, target: Target, seconds: number): Promise<Sample> {
  const pid = server.child.pid!;
  let rssMb = rssMegabytes(pid);
  const sampler = setInterval(() => (rssMb = Math.max(rssMb, rssMegabytes(pid))), 500);
  const cpuBefore = cpuSeconds(pid);
  const machine = readMachine();
  const run = await generator.run(target, CONNECTIONS, seconds);
  clearInterval(sampler);
  return { ...run, cpuSeconds: cpuSeconds(pid) - cpuBefore, rssMb: Math.max(rssMb, rssMegabytes(pid)), machine: machine.stop(run.seconds) };
}

/** The latency below which `fraction` of all the samples' requests lie: each sample's quantiles weigh its requests. */
function pooledPercentile(samples: readonly Sample[], fraction: number): number {
  const points = samples.flatMap((s) => s.latencyQuantilesMs.map((ms) => ({ ms, weight: s.requests / QUANTILES }))).sort((a, b) => a.ms - b.ms);
  const total = points.reduce((sum, point) => sum + point.weight, 0);
  let below = 0;
  for (const point of points) {
    below += point.weight;
    if (below >= fraction * total) return point.ms;
  }
  return points.at(-1)?.ms ?? 0;
}

function summarize(name: string, samples: readonly Sample[]): Measurement {
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  const measurement = {
    name,
    rps: samples.reduce((sum, s) => sum + s.requests, 0) / seconds,
    roundRps: samples.map((s) => s.requests / s.seconds),
    p50: pooledPercentile(samples, 0.5),
    p99: pooledPercentile(samples, 0.99),
    failed: samples.reduce((sum, s) => sum + s.failed, 0),
    rssMb: Math.max(...samples.map((s) => s.rssMb)),
    cpuPercent: (samples.reduce((sum, s) => sum + s.cpuSeconds, 0) / seconds) * 100,
    machinePercent: (samples.reduce((sum, s) => sum + s.machine.cpuSeconds, 0) / samples.reduce((sum, s) => sum + s.machine.seconds, 0)) * 100,
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
  for (const { target } of contenders) await generator.run(target, CONNECTIONS, WARMUP_SECONDS);
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
