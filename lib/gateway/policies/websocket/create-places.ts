import "server-only";
import type { Logger } from "pino";
import { connectRedis } from "../../../limiters/rate-limit-redis";
import { type ConnectionPlaces, createMemoryConnectionPlaces } from "./connection-places";
import { createRedisConnectionPlaces } from "./connection-places-redis";

/**
 * Every gateway process's WebSocket connection places on Redis when `redisUrl` is set, over a
 * connection of its own named `{keyPrefix}websocket`; else this process's own.
 */
export function createConnectionPlaces(input: { redisUrl: string | undefined; keyPrefix: string; log: Logger }): ConnectionPlaces {
  const { redisUrl, keyPrefix, log } = input;
  if (!redisUrl) return createMemoryConnectionPlaces();
  const redis = connectRedis(redisUrl, `${keyPrefix}websocket`, log);
  return createRedisConnectionPlaces({ redis, prefix: keyPrefix, fallback: createMemoryConnectionPlaces(), log });
}
