import { describe, expect, it } from "vitest";
import { clientAddress, createThrottle } from "./throttle";

describe("createThrottle", () => {
  it("throttles a key after the limit until its window ends, and forgets it when cleared", () => {
    let now = 1_000_000;
    const throttle = createThrottle({ limit: 2, windowMs: 60_000, now: () => now });
    throttle.record("a");
    expect(throttle.retryAfter("a")).toBe(0);
    throttle.record("a");
    expect(throttle.retryAfter("a")).toBe(60);
    expect(throttle.retryAfter("b")).toBe(0);
    now += 30_500;
    expect(throttle.retryAfter("a")).toBe(30);
    now += 30_000;
    expect(throttle.retryAfter("a")).toBe(0);
    throttle.record("a");
    throttle.record("a");
    throttle.clear("a");
    expect(throttle.retryAfter("a")).toBe(0);
  });
});

describe("clientAddress", () => {
  it("takes the entry the nearest proxy appended, not the ones a client can invent", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.1.1.1, 10.0.0.7" }))).toBe("10.0.0.7");
    expect(clientAddress({ "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
    expect(clientAddress({})).toBe("unknown");
  });
});
