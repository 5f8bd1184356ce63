// Production entry (`npm start`): applies migrations, seeds an empty database,
// builds Next if there is no build, then serves the gateway in this thread and
// forwards everything else to Next, which runs in a worker thread.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { ConfigError, config } from "./lib/config";
import { db } from "./lib/db";
import { flushGateway, gateway } from "./lib/gateway";
import { nodeHeaders, nodeRequest, writePlainResponse } from "./lib/http/node-message";
import { requestIdFrom } from "./lib/http/request-id";
import { accessLog, log } from "./lib/log";
import { startSecretExpirySweeps } from "./lib/portal/secret-expiry";
import { startRequestLogRetention } from "./lib/usage/retention-schedule";
import { printSeedReport, seed } from "./prisma/seed";
import { applyMigrations } from "./scripts/db/migrations";
import { type Portal, startPortal } from "./server/portal";

const ROOT = import.meta.dirname;
const GATEWAY_PATH = /^\/(gw\/|\.well-known\/oauth-authorization-server\/gw\/)/;

function ensureBuild(): void {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (existsSync(join(ROOT, distDir, "BUILD_ID"))) return;
  log.info("no Next build found; building once (npm run build)");
  execFileSync(join(ROOT, "node_modules", ".bin", "next"), ["build"], { cwd: ROOT, stdio: "inherit" });
}

async function prepareDatabase(): Promise<void> {
  const applied = await applyMigrations(config().databaseUrl);
  if (applied.length > 0) log.info({ migrations: applied }, "applied migrations");
  if ((await db().environment.count()) === 0) printSeedReport(await seed(db(), config()));
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

async function main(): Promise<void> {
  const { port, publicUrl } = config();
  await prepareDatabase();
  ensureBuild();
  const portal = await startPortal({ dir: ROOT, publicPort: port, log });
  const servePortalRequest = servePortal(portal);
  const serveGateway = gateway();
  // Requests are addressed at the public origin; a path in PUBLIC_URL is not part of it.
  const publicOrigin = new URL(publicUrl).origin;
  const server = createServer((req, res) => {
    if (!GATEWAY_PATH.test(req.url ?? "")) return servePortalRequest(req, res);
    serveGateway(nodeRequest(req, publicOrigin))
      .then((response) => writePlainResponse(response, res))
      .catch((error: unknown) => {
        log.error({ err: error }, "gateway response failed");
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
  });
  server.listen(port, () => log.info({ port, publicUrl }, `Gatehouse is listening on ${publicUrl}`));
  startSecretExpirySweeps();
  startRequestLogRetention();
  // Requests under way finish, then the buffered request log and credential use are written
  // and the portal thread stops.
  const stop = () =>
    server.close(() =>
      Promise.all([flushGateway(), portal.stop()])
        .catch((error: unknown) => log.warn({ err: error }, "could not write buffered gateway records"))
        .finally(() => process.exit(0)),
    );
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
