import { describe, expect, it } from "vitest";
import { csrfTokenFromCookies } from "./csrf-token";

function jar(entries: Record<string, string>) {
  const cookies = new Map(Object.entries(entries));
  return { get: (name: string) => (cookies.has(name) ? { value: cookies.get(name)! } : undefined) };
}

describe("csrfTokenFromCookies", () => {
  it("takes the token before next-auth's hash, from the plain cookie of an http origin", () => {
    expect(csrfTokenFromCookies(jar({ "next-auth.csrf-token": "abc123|d1e2f3" }))).toBe("abc123");
  });

  it("takes it from the __Host- cookie of an https origin", () => {
    expect(csrfTokenFromCookies(jar({ "__Host-next-auth.csrf-token": "fed987|a1b2" }))).toBe("fed987");
  });

  it("has no token without the cookie, or with an empty one", () => {
    expect(csrfTokenFromCookies(jar({ "next-auth.session-token": "jwt" }))).toBeUndefined();
    expect(csrfTokenFromCookies(jar({ "next-auth.csrf-token": "" }))).toBeUndefined();
  });
});
