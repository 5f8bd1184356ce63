import { describe, expect, it } from "vitest";
import { createMemoryFailureCounter } from "./rate-limit-memory";
import { clientAddress, retryAfter } from "./throttle";

describe("retryAfter", () => {
  it("waits for the longest of the windows at their limit, and for none below it", async () => {
    const short = createMemoryFailureCounter(60);
    const long = createMemoryFailureCounter(600);
    await short.record("a");
    await long.record("a");
    await long.record("a");
    expect(
      await retryAfter([
        { throttle: short, key: "a", limit: 2 },
        { throttle: long, key: "a", limit: 3 },
      ]),
    ).toBe(0);
    await short.record("a");
    expect(
      await retryAfter([
        { throttle: short, key: "a", limit: 2 },
        { throttle: long, key: "a", limit: 3 },
      ]),
    ).toBe(60);
    await long.record("a");
    expect(
      await retryAfter([
        { throttle: short, key: "a", limit: 2 },
        { throttle: long, key: "a", limit: 3 },
      ]),
    ).toBe(600);
    await long.clear("a");
    await short.clear("a");
    expect(
      await retryAfter([
        { throttle: short, key: "a", limit: 2 },
        { throttle: long, key: "a", limit: 3 },
      ]),
    ).toBe(0);
  });
});

describe("clientAddress", () => {
  it("takes the hop the server in front of Next wrote", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.1.1.1, 10.0.0.7" }))).toBe("10.0.0.7");
    expect(clientAddress({ "x-forwarded-for": "203.0.113.9" })).toBe("203.0.113.9");
    expect(clientAddress({})).toBe("unknown");
  });
});
