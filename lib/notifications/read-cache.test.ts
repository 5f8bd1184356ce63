import { describe, expect, it } from "vitest";
import { createNotificationReadCache, type RenderedNotification } from "./read-cache";

const v1: RenderedNotification = { etag: '"v1"', body: Buffer.from('{"version":1}') };
const v2: RenderedNotification = { etag: '"v2"', body: Buffer.from('{"version":2}') };

function loader(...answers: RenderedNotification[]) {
  const calls = { count: 0 };
  const load = async () => answers[Math.min(calls.count++, answers.length - 1)]!;
  return { calls, load };
}

describe("notification read cache", () => {
  it("answers a repeated read without loading again", async () => {
    const cache = createNotificationReadCache();
    const { calls, load } = loader(v1);
    expect(await cache.read("k", load)).toEqual(v1);
    expect(await cache.read("k", load)).toEqual(v1);
    expect(calls.count).toBe(1);
  });

  it("loads again after an eviction", async () => {
    const cache = createNotificationReadCache();
    const { load } = loader(v1, v2);
    await cache.read("k", load);
    cache.evict("k");
    expect(await cache.read("k", load)).toEqual(v2);
  });

  it("loads again once the entry has lived its ttl", async () => {
    let clock = 0;
    const cache = createNotificationReadCache({ ttlMs: 5_000, now: () => clock });
    const { load } = loader(v1, v2);
    await cache.read("k", load);
    clock = 4_999;
    expect(await cache.read("k", load)).toEqual(v1);
    clock = 5_000;
    expect(await cache.read("k", load)).toEqual(v2);
  });

  it("does not keep a load that an eviction overtook", async () => {
    const cache = createNotificationReadCache();
    let finishStaleLoad: (value: RenderedNotification) => void = () => undefined;
    const stale = cache.read("k", () => new Promise((resolve) => (finishStaleLoad = resolve)));
    cache.evict("k");
    finishStaleLoad(v1);
    expect(await stale).toEqual(v1);
    const { calls, load } = loader(v2);
    expect(await cache.read("k", load)).toEqual(v2);
    expect(calls.count).toBe(1);
  });

  it("keeps at most maxEntries, dropping the oldest", async () => {
    const cache = createNotificationReadCache({ maxEntries: 2 });
    for (const key of ["a", "b", "c"]) await cache.read(key, async () => v1);
    const { calls, load } = loader(v2);
    await cache.read("b", load);
    await cache.read("c", load);
    expect(calls.count).toBe(0);
    expect(await cache.read("a", load)).toEqual(v2);
    expect(calls.count).toBe(1);
  });

  it("does not store a failed load", async () => {
    const cache = createNotificationReadCache();
    await expect(cache.read("k", () => Promise.reject(new Error("not found")))).rejects.toThrow("not found");
    const { calls, load } = loader(v1);
    await cache.read("k", load);
    expect(calls.count).toBe(1);
  });
});
