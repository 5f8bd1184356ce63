import { describe, expect, it } from "vitest";
import { createRefreshedCopy } from "./refreshed-copy";

/** A read that answers when the test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Reads that answer in the order the test queues them, counted. */
function reads<T>(...answers: (() => Promise<T>)[]) {
  let count = 0;
  return {
    load: () => answers[count++]!(),
    count: () => count,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a refreshed copy", () => {
  it("waits for the first read, which callers at the same time share", async () => {
    const first = deferred<number>();
    const source = reads(() => first.promise);
    const copy = createRefreshedCopy(source.load, { refreshAfterMs: 60_000, maxAgeMs: 60_000 });
    const answers = Promise.all([copy.get(), copy.get()]);
    first.resolve(1);
    expect(await answers).toEqual([1, 1]);
    expect(source.count()).toBe(1);
  });

  it("past refreshAfterMs answers what it keeps at once, while one reload runs beside the callers", async () => {
    const reload = deferred<number>();
    const source = reads(
      async () => 1,
      () => reload.promise,
    );
    const copy = createRefreshedCopy(source.load, { refreshAfterMs: 0, maxAgeMs: 60_000 });
    expect(await copy.get()).toBe(1);
    expect(await copy.get()).toBe(1);
    expect(await copy.get()).toBe(1);
    expect(source.count()).toBe(2);
    reload.resolve(2);
    await reload.promise;
    expect(copy.kept()).toBe(2);
  });

  it("past maxAgeMs makes every caller wait for one new read", async () => {
    const reload = deferred<number>();
    const source = reads(
      async () => 1,
      () => reload.promise,
    );
    const copy = createRefreshedCopy(source.load, { refreshAfterMs: 10, maxAgeMs: 20 });
    expect(await copy.get()).toBe(1);
    await pause(30);
    const answers = Promise.all([copy.get(), copy.get()]);
    reload.resolve(2);
    expect(await answers).toEqual([2, 2]);
    expect(source.count()).toBe(2);
  });

  it("hands a waiting caller the failure of its read, keeps the copy it has, and reads again for the next caller", async () => {
    const source = reads(
      async () => 1,
      async () => {
        throw new Error("the database does not answer");
      },
      async () => 3,
    );
    const copy = createRefreshedCopy(source.load, { refreshAfterMs: 10, maxAgeMs: 20 });
    expect(await copy.get()).toBe(1);
    await pause(30);
    await expect(copy.get()).rejects.toThrow("the database does not answer");
    expect(copy.kept()).toBe(1);
    expect(await copy.get()).toBe(3);
  });

  it("answers what it keeps when a reload beside the callers fails", async () => {
    const failed = deferred<number>();
    const source = reads(
      async () => 1,
      () => failed.promise,
      async () => 3,
    );
    const copy = createRefreshedCopy(source.load, { refreshAfterMs: 0, maxAgeMs: 60_000 });
    expect(await copy.get()).toBe(1);
    expect(await copy.get()).toBe(1);
    failed.reject(new Error("the database does not answer"));
    await failed.promise.catch(() => undefined);
    expect(await copy.get()).toBe(1);
    expect(source.count()).toBe(3);
  });

  it("once expired, reads again at once and never answers the copy or a read begun before", async () => {
    const before = deferred<number>();
    const source = reads(
      async () => 1,
      () => before.promise,
      async () => 3,
    );
    const copy = createRefreshedCopy(source.load, { refreshAfterMs: 0, maxAgeMs: 60_000 });
    expect(await copy.get()).toBe(1);
    expect(await copy.get()).toBe(1);
    copy.expire();
    before.resolve(2);
    expect(await copy.get()).toBe(3);
    expect(source.count()).toBe(3);
  });

  it("is fresh while younger than refreshAfterMs and not expired since it was read", async () => {
    const source = reads(
      async () => 1,
      async () => 2,
    );
    const copy = createRefreshedCopy(source.load, { refreshAfterMs: 60_000, maxAgeMs: 120_000 });
    expect(copy.fresh()).toBeUndefined();
    expect(await copy.get()).toBe(1);
    expect(copy.fresh()).toBe(1);
    copy.expire();
    expect(copy.fresh()).toBeUndefined();
    expect(await copy.get()).toBe(2);
    expect(copy.fresh()).toBe(2);
    const aging = createRefreshedCopy(reads(async () => 1).load, { refreshAfterMs: 1, maxAgeMs: 60_000 });
    await aging.get();
    await pause(5);
    expect(aging.fresh()).toBeUndefined();
    expect(aging.kept()).toBe(1);
  });

  it("once expired before any read, reads nothing until a caller asks", async () => {
    const source = reads(async () => 1);
    const copy = createRefreshedCopy(source.load, { refreshAfterMs: 0, maxAgeMs: 60_000 });
    copy.expire();
    expect(source.count()).toBe(0);
    expect(await copy.get()).toBe(1);
    expect(source.count()).toBe(1);
  });
});
