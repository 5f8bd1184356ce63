import { describe, expect, it } from "vitest";
import { createMemoryResponseCacheStore } from "./memory-store";
import type { CachedAnswer, StoreKey } from "./store";

function answer(bytes: number, generation = 0): CachedAnswer {
  return { kind: "answer", status: 200, headers: {}, body: new Uint8Array(bytes), storedAt: 0, expiresAt: 0, arrivedAge: 0, revalidate: false, generation };
}

const key = (name: string, scope = "scope"): StoreKey => ({ scope, name });
const path = key("path");

describe("the in-memory response cache store", () => {
  it("drops the least recently used entries once past its bound, and never keeps one larger than the bound", async () => {
    const store = createMemoryResponseCacheStore(3_000);
    await store.put(key("a"), answer(900), 60_000);
    await store.put(key("b", "another scope"), answer(900), 60_000);
    await store.read(path, key("a"));
    await store.put(key("c"), answer(900), 60_000);
    expect((await store.read(path, key("b", "another scope"))).stored).toBeUndefined();
    expect((await store.read(path, key("a"))).stored).toBeDefined();
    // Read at once from memory, so a hit waits on no promise.
    expect(store.read(path, key("c")).stored).toBeDefined();
    expect(store.bytes).toBeLessThanOrEqual(3_000);
    await store.put(key("huge"), answer(4_000), 60_000);
    expect((await store.read(path, key("huge"))).stored).toBeUndefined();
  });

  it("keeps the entry just stored when every older one was read since, evicting the oldest of those", async () => {
    const store = createMemoryResponseCacheStore(3_000);
    await store.put(key("a"), answer(900), 60_000);
    await store.put(key("b"), answer(900), 60_000);
    await store.read(path, key("a"));
    await store.read(path, key("b"));
    await store.put(key("c"), answer(900), 60_000);
    expect((await store.read(path, key("c"))).stored).toBeDefined();
    expect((await store.read(path, key("a"))).stored).toBeUndefined();
    expect((await store.read(path, key("b"))).stored).toBeDefined();
    expect(store.bytes).toBeLessThanOrEqual(3_000);
  });

  it("finds an entry only under both parts of its key", async () => {
    const store = createMemoryResponseCacheStore(10_000);
    await store.put(key("items/1", "client:a"), answer(10), 60_000);
    expect((await store.read(path, key("items/1", "client:b"))).stored).toBeUndefined();
    expect((await store.read(path, key("items/2", "client:a"))).stored).toBeUndefined();
    expect((await store.read(path, key("items/1", "client:a"))).stored).toBeDefined();
  });

  it("forgets an entry once its keeping time is over", async () => {
    let now = 1_000;
    const store = createMemoryResponseCacheStore(10_000, () => now);
    await store.put(key("a"), answer(10), 500);
    now = 1_499;
    expect((await store.read(path, key("a"))).stored).toBeDefined();
    now = 1_500;
    expect((await store.read(path, key("a"))).stored).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  it("moves a path's generation on at each invalidation, never back to one handed out before", async () => {
    const store = createMemoryResponseCacheStore(10_000);
    const before = (await store.read(key("p"), key("k"))).generation;
    await store.invalidate(key("p"));
    const after = (await store.read(key("p"), key("k"))).generation;
    expect(after).not.toBe(before);
    await store.invalidate(key("p"));
    expect((await store.read(key("p"), key("k"))).generation).toBeGreaterThan(after);
    expect((await store.read(key("other"), key("k"))).generation).toBe(before);
    expect((await store.read(key("p", "another API"), key("k"))).generation).toBe(before);
  });

  it("forgets remembered generations together once their paths pass 8 MiB, reading every path as newer than before", async () => {
    const store = createMemoryResponseCacheStore(10_000);
    const before = (await store.read(key("other"), key("k"))).generation;
    // 8 of these and their scope's text stay just within 8 MiB.
    const longPath = (n: number) => key(`${n}/${"x".repeat(1024 * 1024 - 3)}`);
    for (let n = 0; n < 8; n += 1) await store.invalidate(longPath(n));
    expect((await store.read(key("other"), key("k"))).generation).toBe(before);
    await store.invalidate(longPath(8));
    const forgotten = (await store.read(key("other"), key("k"))).generation;
    expect(forgotten).toBeGreaterThan(before);
    expect((await store.read(longPath(3), key("k"))).generation).toBe(forgotten);
    expect((await store.read(longPath(8), key("k"))).generation).toBeGreaterThan(forgotten);
  });
});
