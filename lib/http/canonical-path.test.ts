import { describe, expect, it } from "vitest";
import { canonicalPath } from "./canonical-path";
import { ProblemError } from "./problem";

function refusal(path: string): string | undefined {
  try {
    canonicalPath(path);
    return undefined;
  } catch (error) {
    return error instanceof ProblemError ? error.code : "not a problem";
  }
}

describe("the canonical form of a request's path", () => {
  it("leaves a canonical path as it is, a trailing slash included", () => {
    for (const path of ["/", "/gw/sso-qa/orders/v1/orders/42", "/gw/sso-qa/orders/", "/a/b;c=d/e.f/~x/%C3%A9", "/a/.hidden/..x"]) {
      expect(canonicalPath(path)).toBe(path);
    }
  });

  it("decodes escapes of unreserved characters and writes the others in upper case (RFC 3986 §6.2.2)", () => {
    expect(canonicalPath("/gw/sso-qa/ordersf/%76%30/orders")).toBe("/gw/sso-qa/ordersf/v0/orders");
    expect(canonicalPath("/%67w/x/%7e%2d%5F%2E1")).toBe("/gw/x/~-_.1");
    expect(canonicalPath("/a/%c3%a9%20b%3f")).toBe("/a/%C3%A9%20b%3F");
  });

  it("escapes what a browser escapes and a path may not hold", () => {
    expect(canonicalPath('/a/{b}|"c"^`d`<e>[f]')).toBe("/a/%7Bb%7D%7C%22c%22%5E%60d%60%3Ce%3E%5Bf%5D");
  });

  it.each([
    ["an absolute-form target", "http://evil.example/x"],
    ["the asterisk form", "*"],
    ["an empty segment", "/gw/sso-qa/orders//v0/orders"],
    ["an empty segment at the start", "//evil.example/x"],
    ["a dot segment", "/./gw/sso-qa/x"],
    ["a dot-dot segment", "/x/../gw/sso-qa/x"],
    ["a final dot-dot segment", "/gw/sso-qa/orders/.."],
    ["an encoded dot-dot segment", "/gw/sso-qa/orders/%2e%2e/secret"],
    ["a half-encoded dot-dot segment", "/gw/sso-qa/orders/.%2E/secret"],
    ["a dot-dot segment with parameters", "/gw/sso-qa/orders/..;/secret"],
    ["an encoded slash", "/gw/sso-qa/orders/v0%2forders"],
    ["an encoded slash after dots", "/gw/sso-qa/orders/..%2fsecret"],
    ["encoded dots and slash", "/gw/sso-qa/orders/%2e%2e%2fsecret"],
    ["an encoded backslash", "/gw/sso-qa/orders/..%5Csecret"],
    ["a backslash", "/gw/sso-qa/orders/..\\secret"],
    ["a double-encoded dot-dot segment", "/gw/sso-qa/orders/%252e%252e/secret"],
    ["a double-encoded dot segment", "/gw/sso-qa/orders/%252e"],
    ["a double-encoded slash", "/gw/sso-qa/orders/..%252fsecret"],
    ["encoded dots and an encoded semicolon", "/gw/sso-qa/orders/%2e%2e%3bx/secret"],
    ["a fragment", "/gw/sso-qa/orders#x"],
    ["a space", "/a b"],
    ["an escape without hexadecimal digits", "/settings/%zz"],
    ["a lone percent sign", "/settings/%"],
    ["an escape that is not UTF-8", "/problems/%C3%28"],
    ["an encoded NUL", "/gw/sso-qa/orders/v1/files/secret.txt%00.png"],
    ["an encoded line break", "/gw/sso-qa/orders/v1/x%0d%0aSet-Cookie:a=b"],
    ["an encoded tab", "/gw/sso-qa/orders/v1/%09"],
    ["an encoded DEL", "/gw/sso-qa/orders/v1/%7f"],
    ["a double-encoded NUL", "/gw/sso-qa/orders/v1/secret%2500"],
  ])("refuses %s with 400 malformed-path", (_what, path) => {
    expect(refusal(path)).toBe("malformed-path");
  });

  it("keeps escapes that decode twice to an ordinary character", () => {
    expect(canonicalPath("/files/report%252epdf")).toBe("/files/report%252epdf");
    expect(canonicalPath("/files/100%25")).toBe("/files/100%25");
    expect(canonicalPath("/files/%2520and%20%C2%A0")).toBe("/files/%2520and%20%C2%A0");
  });
});
