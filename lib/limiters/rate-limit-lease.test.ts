import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createLimits } from "./limits";
import type { RateLimiter } from "./rate-limit";
import type { RateLimitPolicy } from "./rate-limit-policy";
import { LEASE_SHARE, MAX_LEASE, SPEND_MS } from "./rate-limit-lease";

const log = pino({ level: "silent" });
const TEST_REDIS_URL = "redis://127.0.0.1:6379";
const redis = { prefix: `gatehouse-test-${randomUUID()}:`, redis: new Redis(TEST_REDIS_URL) };
afterAll(async () => {
  const keys = await redis.redis.keys(`${redis.prefix}*`);
  if (keys.length > 0) await redis.redis.del(...keys);
  redis.redis.disconnect();
});

/** A gateway process's limiter: its own Redis connection, as each process of GATEWAY_PROCESSES has. */
const processLimiter = (): RateLimiter =>
  createLimits({ redisUrl: TEST_REDIS_URL, keyPrefix: redis.prefix, connectionName: `${redis.prefix}gateway`, leased: true, log }).rateLimiter();

/** Calls `limiter` from `workers` concurrent loops until `until`; the calls it allowed. */
async function load(limiter: RateLimiter, key: string, policy: RateLimitPolicy, workers: number, until: number): Promise<number> {
  let allowed = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) {
        if ((await limiter.take(key, policy)).allowed) allowed += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  return allowed;
}

describe("rate limits leased from Redis (decision 062)", () => {
  it("never admits more than one bucket would across two processes under concurrent load, and spends all of it", async () => {
    const [one, other] = [processLimiter(), processLimiter()];
    const policy = { burst: 400, perSecond: 200 };
    const startedAt = performance.now();
    const until = startedAt + 1500;
    const [a, b] = await Promise.all([load(one, "env:busy", policy, 16, until), load(other, "env:busy", policy, 16, until)]);
    const seconds = (performance.now() - startedAt) / 1000;
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(a + b).toBeLessThanOrEqual(policy.burst + Math.ceil(policy.perSecond * seconds));
    // Tokens a process holds count against the refill until spent or returned, so a little of it goes unspent.
    expect(a + b).toBeGreaterThanOrEqual(policy.burst + policy.perSecond * (seconds - 0.5));
  });

  it("answers most calls under a high limit from the process's lease, without a round trip to Redis", async () => {
    const [one, other] = [processLimiter(), processLimiter()];
    const policy = { burst: 1_000_000, perSecond: 1_000_000 };
    const monitor = await redis.redis.duplicate().monitor();
    let roundTrips = 0;
    monitor.on("monitor", (_time: string, args: string[]) => {
      // MONITOR also shows the commands the script runs; a round trip is the script's call.
      if (/^eval/i.test(args[0] ?? "") && args.includes(`${redis.prefix}rl:env:high`)) roundTrips += 1;
    });
    const calls = Array.from({ length: 2000 }, (_, call) => (call % 2 === 0 ? one : other).take("env:high", policy));
    expect((await Promise.all(calls)).every((answer) => answer.allowed)).toBe(true);
    monitor.disconnect();
    expect(roundTrips).toBeGreaterThan(0);
    // one lease call per half lease: the next is taken in the background once half of one is spent
    expect(roundTrips).toBeLessThanOrEqual(2000 / (MAX_LEASE / 2) + 2);
  });

  it("gives a client alone on one process its whole burst, exactly, and takes back what a lapsed lease left", async () => {
    const limiter = processLimiter();
    const policy = { burst: 300, perSecond: 1 };
    const first = await limiter.take("env:alone", policy);
    expect(first).toMatchObject({ allowed: true, remaining: 299 });
    const held = await redis.redis.hgetall(`${redis.prefix}rl:env:alone`);
    const lease = Object.entries(held).find(([name]) => name.startsWith("l:"));
    expect(Number(lease?.[1].split(":")[0])).toBe(Math.floor(300 / LEASE_SHARE) - 1);
    // The process stops spending its tokens before Redis stops counting them, and returns the rest with its next lease.
    await sleep(SPEND_MS + 100);
    const startedAt = performance.now();
    const answers = await Promise.all(Array.from({ length: 400 }, () => limiter.take("env:alone", policy)));
    const refill = Math.ceil((performance.now() - startedAt + SPEND_MS + 100) / 1000) * policy.perSecond;
    const allowed = answers.filter((answer) => answer.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(299);
    expect(allowed).toBeLessThanOrEqual(299 + refill);
    const refused = answers.find((answer) => !answer.allowed);
    expect(refused).toMatchObject({ remaining: 0, retryAfterSeconds: 1 });
  });

  it("leases one token at a time to small limits, so two processes take turns exactly", async () => {
    const [one, other] = [processLimiter(), processLimiter()];
    const policy = { burst: 5, perSecond: 1 };
    const answers = [];
    for (let call = 0; call < 8; call += 1) answers.push((await (call % 2 === 0 ? one : other).take("env:small", policy)).allowed);
    expect(answers).toEqual([true, true, true, true, true, false, false, false]);
    expect(Object.keys(await redis.redis.hgetall(`${redis.prefix}rl:env:small`)).sort()).toEqual(["t", "u"]);
  });

  it("answers a refused call's RateLimit numbers from Redis, as one bucket", async () => {
    const [one, other] = [processLimiter(), processLimiter()];
    const policy = { burst: 2, perSecond: 1 };
    expect(await one.take("env:headers", policy)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await other.take("env:headers", policy)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await one.take("env:headers", policy)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1, resetSeconds: 2 });
  });
});
