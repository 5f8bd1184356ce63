// The load: autocannon over CONNECTIONS connections; every request of the mix is
// drawn at random when it is sent (60 % list pages, a quarter of them with a
// cursor; 30 % single reads; 10 % updates), each from a random client with its own
// token. CPU and RSS of the server's process are read from /proc around the run.
import { createRequire } from "node:module";
import { CONNECTIONS, SECONDS, WARMUP_SECONDS } from "./options";
import { cpuSeconds, rssMegabytes, type Server } from "./processes";
import { row } from "./report";
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
type AutocannonResult = { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;

export type Measurement = { name: string; rps: number; p50: number; p99: number; failed: number; rssMb: number; cpuPercent: number };
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

/** Warms up, then measures `target` for SECONDS with CONNECTIONS connections. */
export async function measure(name: string, server: Server, target: Target): Promise<Measurement> {
  await autocannon({ ...target, connections: CONNECTIONS, duration: WARMUP_SECONDS });
  process.stderr.write(`measuring ${name} for ${SECONDS} s...\n`);
  const pid = server.child.pid!;
  let rssMb = rssMegabytes(pid);
  const sampler = setInterval(() => (rssMb = Math.max(rssMb, rssMegabytes(pid))), 500);
  const cpuBefore = cpuSeconds(pid);
  const startedAt = performance.now();
  const result = await autocannon({ ...target, connections: CONNECTIONS, duration: SECONDS });
  const cpuPercent = ((cpuSeconds(pid) - cpuBefore) / ((performance.now() - startedAt) / 1000)) * 100;
  clearInterval(sampler);
  const measurement = {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    rssMb: Math.max(rssMb, rssMegabytes(pid)),
    cpuPercent,
  };
  process.stderr.write(`${row(measurement)}\n`);
  return measurement;
}
