import "server-only";
import { hash } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { MAX_KEEP_MS } from "./keep";
import { decodeStored, encodeStored, joinedKey, type ResponseCacheStore, type StoreKey } from "./store";

/**
 * A path's generation outlives every entry stored under it, so one that expires and reads 0
 * again finds no entry of an earlier 0 left.
 */
const GENERATION_KEEP_MS = MAX_KEEP_MS + 24 * 3600 * 1000;

/**
 * Entries every instance on one Redis shares. When Redis does not answer, a call is a miss that
 * stores nothing (generation NaN matches no entry); an invalidation that fails is logged.
 */
export function createRedisResponseCacheStore(redis: Redis, prefix: string, log: Pick<Logger, "warn">): ResponseCacheStore {
  // The cache's keys hold whole paths and queries: digested, every Redis key has the same short length.
  const entryKey = (key: StoreKey) => `${prefix}rc:${hash("sha256", joinedKey(key), "base64url")}`;
  const generationKey = (path: StoreKey) => `${prefix}rcg:${hash("sha256", joinedKey(path), "base64url")}`;
  return {
    async read(path, key) {
      try {
        const [generation, stored] = await redis.mgetBuffer(generationKey(path), entryKey(key));
        return { generation: generation ? Number(generation.toString()) : 0, stored: stored ? decodeStored(stored) : undefined };
      } catch (error) {
        log.warn({ err: (error as Error).message }, "redis unavailable for the response cache; the call goes to the upstream");
        return { generation: Number.NaN, stored: undefined };
      }
    },
    async variant(key) {
      try {
        const stored = await redis.getBuffer(entryKey(key));
        return stored ? decodeStored(stored) : undefined;
      } catch {
        return undefined;
      }
    },
    async put(key, stored, keepMs) {
      try {
        await redis.set(entryKey(key), encodeStored(stored), "PX", Math.max(1, Math.ceil(keepMs)));
      } catch (error) {
        log.warn({ err: (error as Error).message }, "redis unavailable for the response cache; the answer is not stored");
      }
    },
    async invalidate(path) {
      try {
        await redis.multi().incr(generationKey(path)).pexpire(generationKey(path), GENERATION_KEEP_MS).exec();
      } catch (error) {
        log.warn({ err: (error as Error).message, path: joinedKey(path) }, "redis unavailable: cached answers of a path written to were not invalidated");
      }
    },
  };
}
