import "server-only";
import { config } from "../config";
import { problem } from "../http/problem";
import { type RateLimiter, type RateLimitPolicy, rateLimitHeaders } from "../limiters/rate-limit";
import { createMemoryRateLimiter } from "../limiters/rate-limit-memory";
import { connectRedis, createRedisRateLimiter } from "../limiters/rate-limit-redis";
import { log } from "../log";

/** Per token: a burst of 60 requests, refilled at 2 a second; CI jobs call a few times per run. */
export const ACCESS_TOKEN_RATE_LIMIT: RateLimitPolicy = { burst: 60, perSecond: 2 };

const GLOBAL_KEY = Symbol.for("gatehouse.management-api.rate-limiter");

/** One limiter per process; shared through Redis across instances when `REDIS_URL` is set, as the gateway's is. */
function limiter(): RateLimiter {
  const holder = globalThis as { [GLOBAL_KEY]?: RateLimiter };
  if (!holder[GLOBAL_KEY]) {
    const { redisUrl, redisKeyPrefix } = config();
    const memory = createMemoryRateLimiter();
    holder[GLOBAL_KEY] = redisUrl
      ? createRedisRateLimiter(connectRedis(redisUrl, `${redisKeyPrefix}management-api`, log), redisKeyPrefix, memory, log)
      : memory;
  }
  return holder[GLOBAL_KEY];
}

/** Takes one request from the token's bucket: its RateLimit headers, or a 429 with Retry-After. */
export async function takeTokenBudget(tokenId: string): Promise<Record<string, string>> {
  const decision = await limiter().take(`pat:${tokenId}`, ACCESS_TOKEN_RATE_LIMIT);
  const headers = rateLimitHeaders(decision, ACCESS_TOKEN_RATE_LIMIT);
  if (decision.allowed) return headers;
  throw problem("access-token-rate-limited", {
    detail: `Retry after ${decision.retryAfterSeconds} second${decision.retryAfterSeconds === 1 ? "" : "s"}.`,
    headers: { ...headers, "retry-after": String(decision.retryAfterSeconds) },
  });
}
