// The Redis a gateway of several processes needs in the bench: the machine's, under a key
// prefix of the run's own, deleted afterwards.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const BENCH_REDIS_URL = "redis://127.0.0.1:6379";

export function isolatedRedisPrefix(): { prefix: string; cleanup(): Promise<void> } {
  const prefix = `gatehouse-bench-${randomBytes(6).toString("hex")}:`;
  return {
    prefix,
    async cleanup() {
      const redis = new Redis(BENCH_REDIS_URL);
      try {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    },
  };
}
