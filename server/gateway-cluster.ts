// The primary of `npm run start:gateway` with more than one gateway process: it prepares
// the database once, runs the workers on one port, restarts one that dies, serves
// METRICS_PORT for all of them and stops them in order (docs/decisions/059-gateway-processes-with-node-cluster.md).
import cluster, { type Worker } from "node:cluster";
import { config } from "../lib/config";
import { log } from "../lib/log";
import { aggregateWorkerMetrics } from "../lib/metrics/cluster-metrics";
import { startMetricsListener } from "../lib/metrics/serve";
import { printSeedReport, type SeedReport } from "../prisma/seed-report";
import { prepareDatabaseApart } from "./prepare-database-apart";
import { reservePort, StartupError, startupBanner } from "./start-up";

/** A worker that ran this long before it ended is not part of a crash loop. */
const STEADY_AFTER_MS = 10_000;
const FIRST_RESTART_DELAY_MS = 500;
const LONGEST_RESTART_DELAY_MS = 30_000;

/** The wait before a worker replaces one that ended, doubling with each quick death in a row. */
export function restartDelayMs(quickDeathsInARow: number): number {
  if (quickDeathsInARow === 0) return 0;
  return Math.min(LONGEST_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (quickDeathsInARow - 1));
}

function exitReason(code: number | null, signal: string | null): string {
  return signal ? `signal ${signal}` : `code ${code}`;
}

/** Forks `count` workers and resolves once each listens; a worker that ends first ends the start. */
function startWorkers(count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let listening = 0;
    const ended = (_worker: Worker, code: number | null, signal: string | null) => {
      cluster.off("listening", listened);
      reject(new StartupError(`A gateway process ended (${exitReason(code, signal)}) before it listened; its own line above says why.`));
    };
    const listened = () => {
      listening += 1;
      if (listening < count) return;
      cluster.off("exit", ended);
      cluster.off("listening", listened);
      resolve();
    };
    cluster.on("listening", listened);
    cluster.once("exit", ended);
    for (let i = 0; i < count; i += 1) cluster.fork();
  });
}

/** Replaces a worker that ends while the cluster serves; on SIGTERM or SIGINT, stops every worker and then itself. */
function superviseWorkers(onStopped: () => void): void {
  let stopping = false;
  let quickDeathsInARow = 0;
  const startedAt = new Map<Worker, number>();
  const fork = () => startedAt.set(cluster.fork(), Date.now());
  for (const worker of Object.values(cluster.workers ?? {})) if (worker) startedAt.set(worker, Date.now());
  let pendingRestart: NodeJS.Timeout | undefined;

  cluster.on("exit", (worker, code, signal) => {
    const livedMs = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) onStopped();
      return;
    }
    quickDeathsInARow = livedMs < STEADY_AFTER_MS ? quickDeathsInARow + 1 : 0;
    const delayMs = restartDelayMs(quickDeathsInARow);
    log.warn({ pid: worker.process.pid, code, signal, restartInMs: delayMs }, `gateway process ended (${exitReason(code, signal)}); starting another`);
    pendingRestart = setTimeout(() => {
      pendingRestart = undefined;
      if (!stopping) fork();
    }, delayMs);
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    clearTimeout(pendingRestart);
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) return onStopped();
    // Each worker lets its requests under way finish before it exits (stopOnSignals).
    for (const worker of workers) worker?.process.kill("SIGTERM");
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/** Runs `processes` gateway workers on PORT; resolves once every one listens. */
export async function runGatewayCluster(processes: number): Promise<void> {
  const { port, publicUrl } = config();
  const reserved = await reservePort(port);
  let seedReport: SeedReport = [];
  try {
    seedReport = await prepareDatabaseApart();
    const collect = aggregateWorkerMetrics();
    await reserved.release();
    await startWorkers(processes);
    console.log(startupBanner(config(), `gateway only, ${processes} processes`));
    log.info({ port, publicUrl, processes }, `Gatehouse gateway is listening on port ${port} in ${processes} processes`);
    const metricsServer = startMetricsListener(log, collect);
    superviseWorkers(() => {
      metricsServer?.close();
      process.exit(0);
    });
  } catch (error) {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill();
    throw error;
  } finally {
    printSeedReport(seedReport);
  }
}
