// A process of its own for the gateway's start-up steps, started by the gateway-only entry:
// Redis is checked (with REDIS_URL set), then the schema engine, Prisma's client and the seed
// are loaded here, and all of their memory goes back to the system when the process exits
// (decision 014). A thread that ended left about 20 MB of the gateway-only process's malloc
// heap behind, and ioredis loaded for the check would stay in a cluster's primary.
import { config } from "../lib/config";
import { disconnectDb } from "../lib/db";
import { checkRedis } from "./check-redis";
import { prepareDatabase } from "./prepare-database";
import { startupFailure } from "./start-up";

const outcome = await checkRedis(config().redisUrl)
  .then(prepareDatabase)
  .then(
    (report) => ({ report }),
    (error: unknown) => ({ failure: startupFailure(error) }),
  );
await disconnectDb().catch(() => undefined);
process.send!(outcome, () => process.exit(0));
