// Gateway-only entry (`npm run start:gateway`): the data plane without the portal,
// to scale out behind a load balancer beside one full instance (README, "Scale out
// the gateway"). Applies migrations and seeds an empty database like `npm start`,
// then serves /gw/**, RFC 8414's metadata path and /api/health; loads no Next,
// React or next-auth.
import { ConfigError, config } from "./lib/config";
import { log } from "./lib/log";
import { serveGatewayOnlyPaths } from "./server/gateway-only-paths";
import { createGatehouseServer, stopOnSignals } from "./server/http-server";
import { prepareDatabase } from "./server/prepare-database";

async function main(): Promise<void> {
  const { port, publicUrl } = config();
  await prepareDatabase();
  const server = createGatehouseServer({ publicUrl, other: serveGatewayOnlyPaths(new URL(publicUrl).origin) });
  server.listen(port, () => log.info({ port, publicUrl }, `Gatehouse gateway is listening on ${publicUrl}`));
  stopOnSignals(server);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
