import "server-only";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { ChangeSignal } from "../caching/change-signal";
import type { DriverConnection } from "../data-plane/connection";
import { watchDatabaseChanges } from "../data-plane/database-changes";
import { gatewayChangesChannel } from "../gateway-changes";

/**
 * Writers publish their changes on Redis once committed (`lib/gateway-changes.ts`), which also
 * reaches instances whose database connections go through a pooler that cannot LISTEN. Redis keeps
 * nothing for a subscriber that was away, so each time the subscription is ready, everything is
 * read again.
 */
function subscribeOnRedis(redisUrl: string, keyPrefix: string, changes: ChangeSignal, log: Pick<Logger, "warn">): () => Promise<void> {
  const channel = gatewayChangesChannel(keyPrefix);
  const redis = new Redis(redisUrl, { connectionName: `${channel}-subscriber`, maxRetriesPerRequest: null });
  redis.on("error", (error: Error) => log.warn({ err: error.message }, "redis error on the gateway's change subscription"));
  redis.on("message", () => changes.notify());
  redis.on("ready", () => changes.notify());
  redis.subscribe(channel).catch(() => undefined);
  return async () => void redis.disconnect();
}

/**
 * What the gateway keeps is read again soon after any writer commits a change to it: through the
 * database (PostgreSQL's LISTEN, SQLite's watch) and, with `REDIS_URL`, through Redis too, whichever
 * arrives first. Reloads past `GATEWAY_CACHE_MAX_AGE_MS` stay the bound when both are lost.
 */
export function watchGatewayChanges(input: {
  connection: DriverConnection;
  databaseUrl: string;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  changes: ChangeSignal;
  log: Pick<Logger, "warn" | "info">;
}): { stop(): Promise<void> } {
  const { changes, log } = input;
  const database = watchDatabaseChanges({ connection: input.connection, databaseUrl: input.databaseUrl, onChange: changes.notify, log });
  const unsubscribe = input.redisUrl ? subscribeOnRedis(input.redisUrl, input.redisKeyPrefix, changes, log) : undefined;
  return {
    async stop() {
      await Promise.all([database.stop(), unsubscribe?.()]);
    },
  };
}
