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
/**
 * How long Redis counts what a process holds after its last lease; the process spends it for
 * three quarters of that, leases again in the background once less than a half is left, and
 * returns what it did not spend with its next lease.
 */
export const LEASE_TTL_MS = 2000;
export const SPEND_MS = (LEASE_TTL_MS * 3) / 4;

/*
 * The bucket of decision 062: the hash keeps the tokens left in Redis (`t`, at `u`) and one
 * field `l:<holder>` = "<tokens>:<expires at>" per process holding tokens. Held tokens still
 * count against the burst until the holder reports them spent or returned, or the field
 * expires, so Redis never refills the bucket above burst minus what processes hold: every
 * process together never has more than the burst at once, nor more than the refill rate after
 * it, as one bucket. A field that expired counts until it expired. A lease call reports what
 * the holder spent since its last one and returns what lapsed unspent, then adds the new
 * tokens to the holder's field (`keep`: the first of them is the calling request's) and
 * extends it; the holder holds at most `maxLease` tokens.
 */
const LEASE_TOKENS = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local holder = 'l:' .. ARGV[3]
local spent = tonumber(ARGV[4])
local unspent = tonumber(ARGV[5])
local keep = tonumber(ARGV[6])
local share = tonumber(ARGV[7])
local maxLease = tonumber(ARGV[8])
local ttl = tonumber(ARGV[9])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local fields = redis.call('HGETALL', KEYS[1])
local tokens = burst
local updated = now
local live = 0
local ended = 0
local endedAt = 0
local mine = -1
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
      if name == holder then mine = count end
    else
      ended = ended + count
      endedAt = math.max(endedAt, expires)
      redis.call('HDEL', KEYS[1], name)
    end
  end
end
if ended > 0 then
  endedAt = math.max(updated, endedAt)
  tokens = math.min(burst - live - ended, tokens + (endedAt - updated) * rate / 1000)
  updated = endedAt
end
tokens = math.min(burst - live, tokens + math.max(0, now - updated) * rate / 1000)
local held = 0
if mine >= 0 then
  local returned = math.min(unspent, mine)
  held = math.max(0, mine - spent - returned)
  tokens = tokens + returned
end
local granted = 0
local limit = math.max(keep, maxLease - held)
if tokens >= 1 and limit >= 1 then
  granted = math.max(1, math.min(limit, math.floor(tokens / share)))
  tokens = tokens - granted
end
held = held + granted - math.min(keep, granted)
if held > 0 then
  redis.call('HSET', KEYS[1], holder, tostring(held) .. ':' .. tostring(now + ttl))
else
  redis.call('HDEL', KEYS[1], holder)
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'u', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + ttl + 1000)
return { granted, tostring(tokens), mine >= 0 and 1 or 0 }
`;

type LeasingRedis = ScriptedRedis & {
  leaseTokens(
    key: string,
    burst: number,
    perSecond: number,
    holder: string,
    spent: number,
    unspent: number,
    keep: number,
    share: number,
    maxLease: number,
    ttlMs: number,
  ): Promise<[number, string, number]>;
};

/** What this process holds of one key's bucket, and what Redis had left when it last leased. */
type Lease = {
  tokens: number;
  /** `performance.now()` after which this process stops spending them, before Redis stops counting them */
  spendUntil: number;
  /** tokens spent since the last lease call was sent, reported with the next */
  spent: number;
  /** the last lease's size: below half of it, the next lease is taken in the background */
  granted: number;
  /** tokens left in Redis after the last lease: the RateLimit headers' remaining adds what this process holds */
  left: number;
  renewal: Promise<RateLimitDecision> | undefined;
};

const MAX_KEYS = 100_000;

/**
 * Buckets shared by every process on one Redis, leased (decision 062): one script call takes
 * a batch of tokens out of the shared bucket and this process spends them, so most calls touch
 * no Redis; the next batch is leased in the background before this one runs out or lapses,
 * and concurrent calls that find none wait for one lease. When Redis does not answer, the
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

  /** Leases more tokens; with `forCall`, the first is the calling request's. */
  async function renew(key: string, lease: Lease, policy: RateLimitPolicy, forCall: boolean): Promise<RateLimitDecision> {
    const sentAt = performance.now();
    const lapsed = sentAt >= lease.spendUntil;
    const unspent = lapsed ? lease.tokens : 0;
    const spent = lease.spent;
    if (lapsed) lease.tokens = 0;
    lease.spent = 0;
    try {
      const keep = forCall ? 1 : 0;
      const args = [holder, spent, unspent, keep, LEASE_SHARE, MAX_LEASE, LEASE_TTL_MS] as const;
      const [granted, left, kept] = await leasing.leaseTokens(`${prefix}rl:${key}`, policy.burst, policy.perSecond, ...args);
      // Redis no longer counted what this process held: it may not spend it.
      if (kept === 0) lease.tokens = 0;
      lease.tokens += granted - Math.min(keep, granted);
      lease.spendUntil = sentAt + SPEND_MS;
      lease.granted = granted;
      lease.left = Number(left);
      return decide(lease.left + lease.tokens, granted > 0, policy);
    } catch (error) {
      log.warn({ err: (error as Error).message }, "redis rate limit unavailable; using this instance's buckets");
      return fallback.take(key, policy);
    }
  }

  function start(key: string, lease: Lease, policy: RateLimitPolicy, forCall: boolean): Promise<RateLimitDecision> {
    const renewal = renew(key, lease, policy, forCall).finally(() => {
      lease.renewal = undefined;
    });
    lease.renewal = renewal;
    return renewal;
  }

  return {
    async take(key, policy) {
      let lease = leases.get(key);
      if (!lease) {
        if (leases.size >= MAX_KEYS) sweep(performance.now());
        lease = { tokens: 0, spendUntil: 0, spent: 0, granted: 0, left: 0, renewal: undefined };
        leases.set(key, lease);
      }
      for (;;) {
        const now = performance.now();
        if (lease.tokens > 0 && now < lease.spendUntil) {
          lease.tokens -= 1;
          lease.spent += 1;
          const running = lease.tokens < lease.granted / 2 || lease.spendUntil - now < SPEND_MS / 2;
          if (running && !lease.renewal) start(key, lease, policy, false).catch(() => undefined);
          return decide(lease.left + lease.tokens, true, policy);
        }
        if (!lease.renewal) return start(key, lease, policy, true);
        // A refusal answered while this call waited holds for it too: the bucket was empty a round trip ago.
        const answer = await lease.renewal;
        if (!answer.allowed && lease.tokens === 0) return answer;
      }
    },
  };
}
