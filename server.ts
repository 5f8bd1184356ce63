// Production entry (`npm start`): builds Next if there is no build, starts Next in a
// worker thread while it applies migrations and seeds an empty database, then serves
// the gateway in this thread and forwards everything else to Next.
import "./server/check-config";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { config } from "./lib/config";
import { db } from "./lib/db";
import { readEnvFile } from "./lib/env-file";
import { nodeHeaders } from "./lib/http/node-message";
import { requestIdFrom } from "./lib/http/request-id";
import { accessLog, log } from "./lib/log";
import { startMetricsListener } from "./lib/metrics/serve";
import { startSecretExpirySweeps } from "./lib/credentials/secret-expiry";
import { startEventDelivery } from "./lib/webhooks/start-delivery";
import { watchQuotaThresholds } from "./lib/subscriptions/quota-thresholds";
import { projectRoot } from "./lib/runtime/project-root";
import { startRequestLogRetention } from "./lib/usage/retention-schedule";
import { printSeedReport, type SeedReport } from "./prisma/seed-report";
import { createGatehouseServer, listen, stopOnSignals } from "./server/http-server";
import { type Portal, startPortal } from "./server/portal";
import { prepareDatabase } from "./server/prepare-database";
import { checkRedis } from "./server/check-redis";
import { cliPublicUrl, reservePort, startupBanner, startupFailure } from "./server/start-up";

function ensureBuild(): void {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  const root = projectRoot();
  if (existsSync(join(root, distDir, "BUILD_ID"))) return;
  log.info("no Next build found; building once (npm run build)");
  execFileSync(join(root, "node_modules", ".bin", "next"), ["build"], { cwd: root, stdio: "inherit" });
}

function servePortal(portal: Portal) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const startedAt = performance.now();
    const requestId = requestIdFrom(nodeHeaders(req));
    res.on("finish", () => {
      accessLog.info({
        time: new Date().toISOString(),
        requestId,
        method: req.method,
        route: new URL(req.url ?? "/", "http://portal").pathname,
        status: res.statusCode,
        latencyMs: Math.round((performance.now() - startedAt) * 100) / 100,
      });
    });
    portal.forward(req, res, requestId);
  };
}

let seedReport: SeedReport = [];

async function main(): Promise<void> {
  // Next's first run announces that it collects usage data; Gatehouse opts out, for the build
  // it may start and the portal's thread, which inherit it, unless the operator set it (.env included).
  const { port, publicUrl } = config();
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  const reserved = await reservePort(port);
  await checkRedis(config().redisUrl);
  ensureBuild();
  // Next loads its pages in its thread while this one prepares the database, so a start waits
  // for the longer of the two. A portal that fails to start is reported once the migrations are
  // done, rather than ending the process in the middle of one; until then its failure is held.
  const portalStarting = startPortal({ dir: projectRoot(), publicPort: port, log });
  portalStarting.catch(() => undefined);
  seedReport = await prepareDatabase();
  const portal = await portalStarting;
  const server = createGatehouseServer({ publicUrl, other: servePortal(portal) });
  await reserved.release();
  await listen(server, port);
  console.log(startupBanner({ ...config(), cliPublicUrl: cliPublicUrl(process.env, readEnvFile()) }, "portal and gateway"));
  printSeedReport(seedReport);
  log.info({ port, publicUrl }, `Gatehouse is listening on port ${port}`);
  const metricsServer = startMetricsListener(log);
  startSecretExpirySweeps(db());
  startRequestLogRetention(db());
  const eventDelivery = startEventDelivery(db());
  const quotaThresholds = watchQuotaThresholds(db());
  stopOnSignals(server, async () => {
    metricsServer?.close();
    quotaThresholds.stop();
    await Promise.all([portal.stop(), eventDelivery.stop()]);
  });
}

main().catch((error: unknown) => {
  // Demo data seeded just now is shown even so: it is shown nowhere else.
  printSeedReport(seedReport);
  console.error(startupFailure(error));
  process.exit(1);
});
