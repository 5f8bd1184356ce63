import "server-only";
import { problem } from "../http/problem";
import { processLimits } from "../limiters/limits";
import { rateLimitHeaders } from "../limiters/rate-limit";
import type { RateLimitPolicy } from "../limiters/rate-limit-policy";

/** Per token: a burst of 60 requests, refilled at 2 a second; CI jobs call a few times per run. */
export const ACCESS_TOKEN_RATE_LIMIT: RateLimitPolicy = { burst: 60, perSecond: 2 };

/**
 * Takes one request from the token's bucket, shared through Redis across instances as the
 * gateway's are: its RateLimit headers, or a 429 with Retry-After.
 */
export async function takeTokenBudget(tokenId: string): Promise<Record<string, string>> {
  const decision = await processLimits("management-api").rateLimiter().take(`pat:${tokenId}`, ACCESS_TOKEN_RATE_LIMIT);
  const headers = rateLimitHeaders(decision, ACCESS_TOKEN_RATE_LIMIT);
  if (decision.allowed) return headers;
  throw problem("access-token-rate-limited", {
    detail: `Retry after ${decision.retryAfterSeconds} second${decision.retryAfterSeconds === 1 ? "" : "s"}.`,
    headers: Object.assign({}, headers, { "retry-after": String(decision.retryAfterSeconds) }),
  });
}
