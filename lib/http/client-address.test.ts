import { describe, expect, it } from "vitest";
import { parseTrustedProxies, resolveClientAddress } from "./client-address";

const headers = (fields: Record<string, string>) => new Headers(fields);

describe("resolveClientAddress", () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies("10.0.0.0/8, 192.0.2.7, fd00::/8");

  it("believes nobody by default: the socket's peer is the client", () => {
    expect(resolveClientAddress("203.0.113.9", headers({ "x-forwarded-for": "198.51.100.1" }), none)).toBe("203.0.113.9");
    expect(resolveClientAddress("::ffff:203.0.113.9", headers({ forwarded: "for=198.51.100.1" }), none)).toBe("203.0.113.9");
  });

  it("ignores forwarding headers from a peer that is not a trusted proxy", () => {
    expect(resolveClientAddress("203.0.113.9", headers({ "x-forwarded-for": "198.51.100.1" }), proxies)).toBe("203.0.113.9");
  });

  it("walks X-Forwarded-For from the right while the hops are trusted proxies", () => {
    const chain = headers({ "x-forwarded-for": "6.6.6.6, 198.51.100.1, 10.1.2.3" });
    expect(resolveClientAddress("192.0.2.7", chain, proxies)).toBe("198.51.100.1");
    expect(resolveClientAddress("::ffff:10.0.0.1", headers({ "x-forwarded-for": "198.51.100.1" }), proxies)).toBe("198.51.100.1");
  });

  it("reads Forwarded when there is no X-Forwarded-For", () => {
    const forwarded = headers({ forwarded: 'for=6.6.6.6, for="[2001:db8::1]:4711";proto=https, for=10.0.0.5:8080' });
    expect(resolveClientAddress("fd00::1", forwarded, proxies)).toBe("2001:db8::1");
  });

  it("keeps the trusted proxy itself when it reports no hop", () => {
    expect(resolveClientAddress("10.0.0.1", headers({}), proxies)).toBe("10.0.0.1");
  });

  it("refuses entries that are not addresses or ranges", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/prefix/);
    expect(() => parseTrustedProxies("proxy.internal")).toThrow(/not an IP/);
  });
});
