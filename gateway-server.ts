// Gateway-only entry (`npm run start:gateway`): the data plane without the portal,
// to scale out behind a load balancer beside one full instance (docs/scaling-out.md).
// Applies migrations and seeds an empty database like `npm start`, in a process that
// then ends, then serves /gw/**, RFC 8414's metadata path, /api/health and /api/ready
// in GATEWAY_PROCESSES processes; loads no Next, React, next-auth or Prisma client.
// The serving code is imported only by the processes that serve, so that a cluster's
// primary holds none of it (server/gateway-cluster.ts).
import "./server/check-config";
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { config } from "./lib/config";
import { compiledModule } from "./lib/runtime/threads";
import { runGatewayCluster } from "./server/gateway-cluster";
import { gatewayProcessCount } from "./server/gateway-processes";
import { prepareDatabaseApart } from "./server/prepare-database-apart";
import { startupFailure } from "./server/start-up";

type GatewayProcess = typeof import("./server/gateway-process");

const gatewayProcess = () => import(compiledModule("server/gateway-process.ts")) as Promise<GatewayProcess>;

async function main(): Promise<void> {
  if (cluster.isWorker) return (await gatewayProcess()).serveAsWorker();
  const processes = gatewayProcessCount(config(), availableParallelism());
  if (processes === 1) {
    // The serving code loads while the start-up process prepares the database; a database that
    // cannot be prepared is reported first, as it is the likelier failure.
    const loading = gatewayProcess();
    loading.catch(() => undefined);
    const seedReport = await prepareDatabaseApart();
    return (await loading).serveAlone(seedReport);
  }
  return runGatewayCluster(processes);
}

main().catch((error: unknown) => {
  console.error(startupFailure(error));
  process.exit(1);
});
