import type { RateLimitPolicy } from "./rate-limit-policy";

export type RateLimitDecision = {
  allowed: boolean;
  /** whole requests left in the bucket */
  remaining: number;
  /** seconds until one request is allowed again (0 when allowed) */
  retryAfterSeconds: number;
  /** seconds until the bucket is full again */
  resetSeconds: number;
};

export type RateLimiter = {
  /** Takes one request from the key's bucket: at once where the bucket is this process's own. */
  take(key: string, policy: RateLimitPolicy): RateLimitDecision | Promise<RateLimitDecision>;
};

/** Counts events per key in a fixed window (failed client authentications and sign-ins, Contact Us messages). */
export type FailureCounter = {
  /** events so far in the current window, and seconds until it ends */
  current(key: string): Promise<{ count: number; resetSeconds: number }>;
  record(key: string): Promise<void>;
  /** forgets the key's window, after a success */
  clear(key: string): Promise<void>;
};

export function decide(tokensAfter: number, allowed: boolean, policy: RateLimitPolicy): RateLimitDecision {
  return {
    allowed,
    remaining: Math.max(0, Math.floor(tokensAfter)),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokensAfter) / policy.perSecond)),
    resetSeconds: Math.max(0, Math.ceil((policy.burst - tokensAfter) / policy.perSecond)),
  };
}

/**
 * IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the
 * policy as a quota `q` over the window `w` in which the bucket refills
 * entirely, and what is left now.
 */
export function rateLimitHeaders(decision: RateLimitDecision, policy: RateLimitPolicy): Record<string, string> {
  const window = Math.max(1, Math.ceil(policy.burst / policy.perSecond));
  return {
    "ratelimit-policy": `"client";q=${policy.burst};w=${window}`,
    ratelimit: `"client";r=${decision.remaining};t=${decision.allowed ? decision.resetSeconds : decision.retryAfterSeconds}`,
  };
}
