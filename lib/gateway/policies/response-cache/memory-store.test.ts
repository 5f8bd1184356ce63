import { describe, expect, it } from "vitest";
import { createMemoryResponseCacheStore } from "./memory-store";
import type { CachedAnswer } from "./store";

function answer(bytes: number, generation = 0): CachedAnswer {
  return { kind: "answer", status: 200, headers: {}, body: new Uint8Array(bytes), storedAt: 0, expiresAt: 0, arrivedAge: 0, revalidate: false, generation };
}

describe("the in-memory response cache store", () => {
  it("drops the least recently used entries once past its bound, and never keeps one larger than the bound", async () => {
    const store = createMemoryResponseCacheStore(3_000);
    await store.put("a", answer(900), 60_000);
    await store.put("b", answer(900), 60_000);
    await store.read("path", "a");
    await store.put("c", answer(900), 60_000);
    expect((await store.read("path", "b")).stored).toBeUndefined();
    expect((await store.read("path", "a")).stored).toBeDefined();
    expect((await store.read("path", "c")).stored).toBeDefined();
    expect(store.bytes).toBeLessThanOrEqual(3_000);
    await store.put("huge", answer(4_000), 60_000);
    expect((await store.read("path", "huge")).stored).toBeUndefined();
  });

  it("forgets an entry once its keeping time is over", async () => {
    let now = 1_000;
    const store = createMemoryResponseCacheStore(10_000, () => now);
    await store.put("a", answer(10), 500);
    now = 1_499;
    expect((await store.read("path", "a")).stored).toBeDefined();
    now = 1_500;
    expect((await store.read("path", "a")).stored).toBeUndefined();
  });

  it("moves a path's generation on at each invalidation, never back to one handed out before", async () => {
    const store = createMemoryResponseCacheStore(10_000);
    const before = (await store.read("p", "k")).generation;
    await store.invalidate("p");
    const after = (await store.read("p", "k")).generation;
    expect(after).not.toBe(before);
    await store.invalidate("p");
    expect((await store.read("p", "k")).generation).toBeGreaterThan(after);
    expect((await store.read("other", "k")).generation).toBe(before);
  });

  it("forgets remembered generations together once their paths pass 8 MiB, reading every path as newer than before", async () => {
    const store = createMemoryResponseCacheStore(10_000);
    const before = (await store.read("other", "k")).generation;
    const longPath = (n: number) => `${n}/${"x".repeat(1024 * 1024 - 2)}`;
    for (let n = 0; n < 8; n += 1) await store.invalidate(longPath(n));
    expect((await store.read("other", "k")).generation).toBe(before);
    await store.invalidate(longPath(8));
    const forgotten = (await store.read("other", "k")).generation;
    expect(forgotten).toBeGreaterThan(before);
    expect((await store.read(longPath(3), "k")).generation).toBe(forgotten);
    expect((await store.read(longPath(8), "k")).generation).toBeGreaterThan(forgotten);
  });
});
