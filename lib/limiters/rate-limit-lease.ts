import "server-only";
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { RateLimitDecision, RateLimiter } from "./rate-limit";
import { decide } from "./rate-limit";
import type { RateLimitPolicy } from "./rate-limit-policy";
import type { ScriptedRedis } from "./rate-limit-redis";

/**
 * A process leases at most this share of what is left in the bucket, so that the other
 * processes still find tokens; below 2 × LEASE_SHARE tokens every lease is 1, exact.
 */
export const LEASE_SHARE = 8;
/** The most tokens one process holds for one key: what it can leave stranded (decision 062). */
export const MAX_LEASE = 100;
/** How long Redis counts a lease as held; the process spends it for half of that, then returns what is left with its next lease. */
export const LEASE_TTL_MS = 1000;

/*
 * The bucket of decision 062: the hash keeps the tokens left in Redis (`t`, at `u`) and one
 * field `l:<holder>` = "<tokens>:<expires at>" per process holding a lease. Leased tokens
 * still count against the burst until their lease ends, so Redis never refills the bucket
 * above burst minus what processes hold: every process together never has more than the
 * burst at once, nor more than the refill rate after it, as one bucket. A lease that ended
 * counts until its end; the holder's own lease ends now, and what it did not spend goes back
 * to the bucket if Redis still counts it.
 */
const LEASE_TOKENS = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local holder = 'l:' .. ARGV[3]
local unspent = tonumber(ARGV[4])
local share = tonumber(ARGV[5])
local maxLease = tonumber(ARGV[6])
local ttl = tonumber(ARGV[7])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local fields = redis.call('HGETALL', KEYS[1])
local tokens = burst
local updated = now
local live = 0
local ended = 0
local endedAt = 0
local returned = 0
for i = 1, #fields, 2 do
  local name = fields[i]
  if name == 't' then tokens = tonumber(fields[i + 1])
  elseif name == 'u' then updated = tonumber(fields[i + 1])
  else
    local value = fields[i + 1]
    local sep = string.find(value, ':', 1, true)
    local count = tonumber(string.sub(value, 1, sep - 1))
    local expires = tonumber(string.sub(value, sep + 1))
    if expires > now then
      live = live + count
      if name == holder then returned = math.min(unspent, count) end
    else
      ended = ended + count
      endedAt = math.max(endedAt, expires)
    end
    if expires <= now or name == holder then redis.call('HDEL', KEYS[1], name) end
  end
end
if ended > 0 then
  endedAt = math.max(updated, endedAt)
  tokens = math.min(burst - live - ended, tokens + (endedAt - updated) * rate / 1000)
  updated = endedAt
end
tokens = math.min(burst - live, tokens + math.max(0, now - updated) * rate / 1000)
tokens = tokens + returned
local granted = 0
if tokens >= 1 then
  granted = math.max(1, math.min(maxLease, math.floor(tokens / share)))
  tokens = tokens - granted
end
if granted > 1 then redis.call('HSET', KEYS[1], holder, tostring(granted - 1) .. ':' .. tostring(now + ttl)) end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'u', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + ttl + 1000)
return { granted, tostring(tokens) }
`;

type LeasingRedis = ScriptedRedis & {
  leaseTokens(
    key: string,
    burst: number,
    perSecond: number,
    holder: string,
    unspent: number,
    share: number,
    maxLease: number,
    ttlMs: number,
  ): Promise<[number, string]>;
};

/** What this process holds of one key's bucket, and what Redis had left when it leased. */
type Lease = {
  tokens: number;
  /** `performance.now()` after which this process stops spending it, before Redis stops counting it */
  spendUntil: number;
  /** tokens left in Redis after the lease: the RateLimit headers' remaining adds what this process holds */
  left: number;
  renewal: Promise<RateLimitDecision> | undefined;
};

const MAX_KEYS = 100_000;

/**
 * Buckets shared by every process on one Redis, leased (decision 062): one script call takes
 * a batch of tokens out of the shared bucket and this process spends them, so most calls touch
 * no Redis; concurrent calls for one key wait for one lease. When Redis does not answer, the
 * process falls back to its own buckets rather than refusing traffic.
 */
export function createLeasedRateLimiter(redis: ScriptedRedis, prefix: string, fallback: RateLimiter, log: Logger): RateLimiter {
  redis.defineCommand("leaseTokens", { numberOfKeys: 1, lua: LEASE_TOKENS });
  const leasing = redis as LeasingRedis;
  const holder = randomBytes(9).toString("base64url");
  const leases = new Map<string, Lease>();

  function sweep(now: number): void {
    for (const [key, lease] of leases) if (!lease.renewal && lease.spendUntil <= now) leases.delete(key);
  }

  async function renew(key: string, lease: Lease, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    const sentAt = performance.now();
    const unspent = lease.tokens;
    lease.tokens = 0;
    try {
      const [granted, left] = await leasing.leaseTokens(
        `${prefix}rl:${key}`,
        policy.burst,
        policy.perSecond,
        holder,
        unspent,
        LEASE_SHARE,
        MAX_LEASE,
        LEASE_TTL_MS,
      );
      lease.tokens = Math.max(0, granted - 1);
      lease.spendUntil = sentAt + LEASE_TTL_MS / 2;
      lease.left = Number(left);
      return decide(lease.left + lease.tokens, granted > 0, policy);
    } catch (error) {
      log.warn({ err: (error as Error).message }, "redis rate limit unavailable; using this instance's buckets");
      return fallback.take(key, policy);
    }
  }

  return {
    async take(key, policy) {
      let lease = leases.get(key);
      if (!lease) {
        if (leases.size >= MAX_KEYS) sweep(performance.now());
        lease = { tokens: 0, spendUntil: 0, left: 0, renewal: undefined };
        leases.set(key, lease);
      }
      for (;;) {
        if (lease.renewal) {
          // A refusal answered while this call waited holds for it too: the bucket was empty a round trip ago.
          const answer = await lease.renewal;
          if (!answer.allowed) return answer;
        }
        if (lease.renewal) continue;
        if (lease.tokens > 0 && performance.now() < lease.spendUntil) {
          lease.tokens -= 1;
          return decide(lease.left + lease.tokens, true, policy);
        }
        const renewal = renew(key, lease, policy);
        lease.renewal = renewal;
        try {
          return await renewal;
        } finally {
          lease.renewal = undefined;
        }
      }
    },
  };
}
