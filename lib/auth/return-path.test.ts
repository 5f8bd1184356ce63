import { describe, expect, it } from "vitest";
import { landingPath, safeRedirectUrl, safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it.each([
    ["/settings/credentials", "/settings/credentials"],
    ["/apis/notifications?env=sso-qa", "/apis/notifications?env=sso-qa"],
    ["//evil.example/x", "/settings"],
    ["/\\evil.example", "/settings"],
    ["https://evil.example", "/settings"],
    ["/\t/evil.example", "/settings"],
    ["/\n/evil.example", "/settings"],
    ["/%09/evil.example", "/%09/evil.example"],
    [`/${"a".repeat(5000)}`, "/settings"],
    [undefined, "/settings"],
    [["/a", "/b"], "/settings"],
  ])("%j becomes %j", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });
});

describe("safeRedirectUrl", () => {
  const base = "https://portal.example";
  it.each([
    ["/apis", "https://portal.example/apis"],
    ["https://portal.example/settings/usage?x=1", "https://portal.example/settings/usage?x=1"],
    ["https://portal.example", "https://portal.example/"],
    ["\\\\evil.example", "https://portal.example/settings"],
    ["/\\evil.example", "https://portal.example/settings"],
    ["%2F%2Fevil.example", "https://portal.example/settings"],
    ["/%2F%2Fevil.example", "https://portal.example/%2F%2Fevil.example"],
    ["javascript:alert(1)", "https://portal.example/settings"],
    ["https://portal.example.evil.example/", "https://portal.example/settings"],
    ["https://evil.example/settings", "https://portal.example/settings"],
    ["http://[::1", "https://portal.example/settings"],
    [`/${"x".repeat(100_000)}`, "https://portal.example/settings"],
  ])("%j goes to %j", (input, expected) => {
    expect(safeRedirectUrl(input, base)).toBe(expected);
  });
});

describe("landingPath", () => {
  it("sends admins to the admin console and developers to Settings", () => {
    expect(landingPath("ADMIN")).toBe("/admin");
    expect(landingPath("DEVELOPER")).toBe("/settings");
  });
});
