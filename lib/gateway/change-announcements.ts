import "server-only";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/**
 * Shares evictions among the instances on one Redis: `announce(key)` evicts
 * here at once, then publishes the key, and every subscribed instance evicts
 * it too. A lost message is bounded by the cache's own time to live.
 */
export function announceOverRedis(input: { redis: Redis; channel: string; evict: (key: string) => void; log: Logger }): (key: string) => void {
  const { redis, channel, evict, log } = input;
  const subscriber = redis.duplicate();
  subscriber.on("error", (error: Error) => log.warn({ err: error.message }, "redis subscriber error"));
  subscriber.on("message", (from: string, key: string) => {
    if (from === channel) evict(key);
  });
  subscriber.subscribe(channel).catch((error: Error) => log.warn({ err: error.message, channel }, "could not subscribe to change announcements"));
  return (key) => {
    evict(key);
    redis.publish(channel, key).catch((error: Error) => log.warn({ err: error.message, channel }, "could not announce a change"));
  };
}
