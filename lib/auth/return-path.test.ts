import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it.each([
    ["/settings/credentials", "/settings/credentials"],
    ["/apis/notifications?env=sso-qa", "/apis/notifications?env=sso-qa"],
    ["//evil.example/x", "/settings"],
    ["/\\evil.example", "/settings"],
    ["https://evil.example", "/settings"],
    [undefined, "/settings"],
    [["/a", "/b"], "/settings"],
  ])("%j becomes %j", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });
});
