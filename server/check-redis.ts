// The start-up check of REDIS_URL, in a module of its own so that a process that only starts
// others (the gateway cluster's primary) does not load ioredis: the gateway's start-up
// process runs it (server/prepare-database-process.ts), and `npm start` runs it itself.
import { Redis } from "ioredis";
import { reason, redisLabel, StartupError } from "./start-up";

/** With REDIS_URL set, Redis must answer before the server takes requests. */
export async function checkRedis(redisUrl: string | undefined): Promise<void> {
  if (!redisUrl) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new StartupError(`Cannot reach Redis at ${redisLabel(redisUrl)} (${reason(error)}). Start it, or unset REDIS_URL to keep rate limits per instance.`);
  } finally {
    redis.disconnect();
  }
}
