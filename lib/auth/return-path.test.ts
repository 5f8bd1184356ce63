import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path";

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
    [undefined, "/settings"],
    [["/a", "/b"], "/settings"],
  ])("%j becomes %j", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });
});
