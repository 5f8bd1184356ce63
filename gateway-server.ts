// Gateway-only entry (`npm run start:gateway`): the data plane without the portal,
// to scale out behind a load balancer beside one full instance (docs/scaling-out.md).
// Applies migrations and seeds an empty database like `npm start`, in a thread that
// then ends, then serves /gw/**, RFC 8414's metadata path,
// /api/health and /api/ready; loads no Next, React, next-auth or Prisma client.
import "./server/check-config";
import { config } from "./lib/config";
import { log } from "./lib/log";
import { startMetricsListener } from "./lib/metrics/serve";
import { printSeedReport, type SeedReport } from "./prisma/seed-report";
import { serveGatewayOnlyPaths } from "./server/gateway-only-paths";
import { createGatehouseServer, listen, stopOnSignals } from "./server/http-server";
import { prepareDatabaseApart } from "./server/prepare-database-apart";
import { checkRedis, startupBanner, startupFailure } from "./server/start-up";

let seedReport: SeedReport = [];

async function main(): Promise<void> {
  const { port, publicUrl } = config();
  await checkRedis(config().redisUrl);
  seedReport = await prepareDatabaseApart();
  const server = createGatehouseServer({ publicUrl, other: serveGatewayOnlyPaths(new URL(publicUrl).origin) });
  await listen(server, port);
  console.log(startupBanner(config(), "gateway only"));
  printSeedReport(seedReport);
  log.info({ port, publicUrl }, `Gatehouse gateway is listening on port ${port}`);
  const metricsServer = startMetricsListener(log);
  stopOnSignals(server, async () => metricsServer?.close());
}

main().catch((error: unknown) => {
  printSeedReport(seedReport);
  console.error(startupFailure(error));
  process.exit(1);
});
