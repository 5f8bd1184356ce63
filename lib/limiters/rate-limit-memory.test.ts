import { afterEach, describe, expect, it, vi } from "vitest";
import { rateLimitHeaders } from "./rate-limit";
import { createMemoryFailureCounter, createMemoryRateLimiter } from "./rate-limit-memory";

afterEach(() => {
  vi.useRealTimers();
});

describe("memory token bucket", () => {
  it("allows a burst, refuses the next, and refills at the configured rate", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const limiter = createMemoryRateLimiter();
    const policy = { burst: 2, perSecond: 4 };
    expect((await limiter.take("a", policy)).remaining).toBe(1);
    expect((await limiter.take("a", policy)).allowed).toBe(true);
    const refused = await limiter.take("a", policy);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1, resetSeconds: 1 });
    expect(rateLimitHeaders(refused, policy)).toEqual({ "ratelimit-policy": '"client";q=2;w=1', ratelimit: '"client";r=0;t=1' });
    // This process's own buckets decide at once, so the gateway's rate-limit stage waits on no promise for them.
    expect(limiter.take("c", policy)).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0, resetSeconds: 1 });
    expect((await limiter.take("b", policy)).allowed).toBe(true);
    vi.advanceTimersByTime(250);
    expect((await limiter.take("a", policy)).allowed).toBe(true);
    expect((await limiter.take("a", policy)).allowed).toBe(false);
  });
});

describe("memory failure counter", () => {
  it("counts failures in a fixed window that then ends", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const counter = createMemoryFailureCounter(60);
    expect(await counter.current("k")).toEqual({ count: 0, resetSeconds: 0 });
    await counter.record("k");
    await counter.record("k");
    expect(await counter.current("k")).toEqual({ count: 2, resetSeconds: 60 });
    vi.advanceTimersByTime(60_001);
    expect((await counter.current("k")).count).toBe(0);
  });
});
