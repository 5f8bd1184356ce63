// The gateway-only server in one process: what `npm run start:gateway` runs with one
// gateway process, and what each worker of its cluster runs (server/gateway-cluster.ts).
import { config } from "../lib/config";
import { log } from "../lib/log";
import { offerMetricsToPrimary } from "../lib/metrics/cluster-metrics";
import { startMetricsListener } from "../lib/metrics/serve";
import { printSeedReport, type SeedReport } from "../prisma/seed-report";
import { serveGatewayOnlyPaths } from "./gateway-only-paths";
import { createGatehouseServer, listen, stopOnSignals } from "./http-server";
import { startupBanner } from "./start-up";

/** Serves on PORT, on a database `prepareDatabaseApart` has prepared, and says so, as the one gateway process. */
export async function serveAlone(seedReport: SeedReport): Promise<void> {
  const { port, publicUrl } = config();
  try {
    const server = createGatehouseServer({ publicUrl, other: serveGatewayOnlyPaths(new URL(publicUrl).origin) });
    await listen(server, port);
    console.log(startupBanner(config(), "gateway only"));
    log.info({ port, publicUrl }, `Gatehouse gateway is listening on port ${port}`);
    const metricsServer = startMetricsListener(log);
    stopOnSignals(server, async () => metricsServer?.close());
  } finally {
    // Demo data seeded just now is shown even when serving failed: it is shown nowhere else.
    printSeedReport(seedReport);
  }
}

/**
 * Serves on PORT as one worker of the cluster: the primary has prepared the database,
 * says when every worker listens, and serves METRICS_PORT for all of them.
 */
export async function serveAsWorker(): Promise<void> {
  const { port, publicUrl } = config();
  offerMetricsToPrimary();
  const server = createGatehouseServer({ publicUrl, other: serveGatewayOnlyPaths(new URL(publicUrl).origin) });
  await listen(server, port);
  stopOnSignals(server);
}
