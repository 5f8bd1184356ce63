import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const TEST_REDIS_URL = "redis://127.0.0.1:6379";

/** A key prefix of the test's own on the machine's Redis, and the cleanup that deletes its keys. */
export function isolatedRedisPrefix(): { prefix: string; redis: Redis; cleanup(): Promise<void> } {
  const prefix = `gatehouse-test-${randomBytes(6).toString("hex")}:`;
  const redis = new Redis(TEST_REDIS_URL);
  return {
    prefix,
    redis,
    async cleanup() {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
