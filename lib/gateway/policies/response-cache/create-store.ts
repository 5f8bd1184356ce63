import "server-only";
import type { Logger } from "pino";
import { connectRedis } from "../../../limiters/rate-limit-redis";
import { createMemoryResponseCacheStore } from "./memory-store";
import { createRedisResponseCacheStore } from "./redis-store";
import type { ResponseCacheStore } from "./store";

/**
 * Redis, shared by every instance, when `redisUrl` is set, over a connection of its own named
 * `{keyPrefix}response-cache`; else this process's memory, bounded at `maxBytes`.
 */
export function createResponseCacheStore(input: { redisUrl: string | undefined; keyPrefix: string; maxBytes: number; log: Logger }): ResponseCacheStore {
  const { redisUrl, keyPrefix, log } = input;
  if (!redisUrl) return createMemoryResponseCacheStore(input.maxBytes);
  return createRedisResponseCacheStore(connectRedis(redisUrl, `${keyPrefix}response-cache`, log), keyPrefix, log);
}
