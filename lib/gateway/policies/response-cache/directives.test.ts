import { describe, expect, it } from "vitest";
import { cacheControl, storability, varyNames } from "./directives";

const NOW = Date.parse("2026-11-28T12:00:00Z");

describe("cacheControl", () => {
  it("reads names case-insensitively, tokens and quoted strings, the first of a repeated directive", () => {
    const directives = cacheControl(['Max-Age=60, no-cache="Set-Cookie, X-A"', "max-age=5, PUBLIC"]);
    expect(Object.fromEntries(directives)).toEqual({ "max-age": "60", "no-cache": "Set-Cookie, X-A", public: "" });
  });
});

describe("varyNames", () => {
  it("lists each name once, lower case and sorted", () => {
    expect(varyNames(["Accept-Encoding, x-b", "X-B, accept-encoding"])).toEqual(["accept-encoding", "x-b"]);
  });
});

describe("storability", () => {
  it("takes the policy's TTL, bounded by s-maxage over max-age, less the Age the answer arrived with", () => {
    expect(storability(200, {}, 60, NOW)).toEqual({ store: true, lifetimeSeconds: 60, revalidate: false });
    expect(storability(200, { "cache-control": "max-age=10" }, 60, NOW)).toMatchObject({ lifetimeSeconds: 10 });
    expect(storability(200, { "cache-control": "max-age=10, s-maxage=30" }, 60, NOW)).toMatchObject({ lifetimeSeconds: 30 });
    expect(storability(200, { "cache-control": "max-age=10", age: "4" }, 60, NOW)).toMatchObject({ lifetimeSeconds: 6 });
    expect(storability(200, { "cache-control": "max-age=10", age: "10" }, 60, NOW)).toEqual({ store: false, reason: "stale" });
    expect(storability(200, { "cache-control": "max-age=soon" }, 60, NOW)).toEqual({ store: false, reason: "stale" });
  });

  it("bounds by Expires when no max-age is given; an Expires that is not a date is already past", () => {
    const date = new Date(NOW).toUTCString();
    expect(storability(200, { date, expires: new Date(NOW + 20_000).toUTCString() }, 60, NOW)).toMatchObject({ lifetimeSeconds: 20 });
    expect(storability(200, { expires: "0" }, 60, NOW)).toEqual({ store: false, reason: "stale" });
  });

  it("refuses what a shared cache must not keep", () => {
    expect(storability(201, {}, 60, NOW)).toEqual({ store: false, reason: "status" });
    expect(storability(500, {}, 60, NOW)).toEqual({ store: false, reason: "status" });
    expect(storability(200, { "cache-control": "public, no-store" }, 60, NOW)).toEqual({ store: false, reason: "no-store" });
    expect(storability(200, { "cache-control": "private" }, 60, NOW)).toEqual({ store: false, reason: "private" });
    expect(storability(200, { "set-cookie": ["a=1"] }, 60, NOW)).toEqual({ store: false, reason: "set-cookie" });
    expect(storability(200, { vary: "Accept, *" }, 60, NOW)).toEqual({ store: false, reason: "vary-star" });
  });

  it("keeps every status cacheable by default, and marks no-cache for revalidation", () => {
    for (const status of [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]) expect(storability(status, {}, 60, NOW).store).toBe(true);
    expect(storability(200, { "cache-control": "no-cache" }, 60, NOW)).toMatchObject({ store: true, revalidate: true });
  });
});
