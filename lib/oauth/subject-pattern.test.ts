import { describe, expect, it } from "vitest";
import { subjectMatches } from "./subject-pattern";

/** The meaning of a pattern, as a regular expression: `*` is any run of characters, anything else itself. */
function byRegExp(pattern: string, subject: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s").test(subject);
}

describe("trusted subjects", () => {
  it("match exactly, or with * for any run of characters, and nothing else", () => {
    expect(subjectMatches("repo:acme/billing:ref:refs/heads/main", "repo:acme/billing:ref:refs/heads/main")).toBe(true);
    expect(subjectMatches("repo:acme/billing:ref:refs/heads/main", "repo:acme/billing:ref:refs/heads/main2")).toBe(false);
    expect(subjectMatches("repo:acme/billing:ref:refs/heads/*", "repo:acme/billing:ref:refs/heads/release/1.2")).toBe(true);
    expect(subjectMatches("repo:acme/billing:ref:refs/heads/*", "repo:acme/billing:pull_request")).toBe(false);
    expect(subjectMatches("system:serviceaccount:*:deployer", "system:serviceaccount:payments:deployer")).toBe(true);
    expect(subjectMatches("a.b", "aXb")).toBe(false);
    expect(subjectMatches("(x)+", "(x)+")).toBe(true);
    expect(subjectMatches("(x)+", "xx")).toBe(false);
  });

  it("mean what the regular expression with .* for each * means", () => {
    const patterns = [
      "",
      "*",
      "**",
      "a*",
      "*a",
      "a*a",
      "ab*ba",
      "*ab*",
      "a*b*c",
      "*a*a*",
      "repo:acme/*:ref:refs/heads/*",
      "repo:*/billing:*",
      "x*\n*y",
      "[.]*$",
    ];
    const subjects = [
      "",
      "a",
      "aa",
      "aba",
      "abba",
      "abxba",
      "abc",
      "acb",
      "aXbYc",
      "xaay",
      "x\ny",
      "x\n\ny",
      "[.]$",
      "[.]zz$",
      "repo:acme/billing:ref:refs/heads/main",
      "repo:acme/billing:pull_request",
      "repo:other/billing:environment:prod",
    ];
    for (const pattern of patterns) {
      for (const subject of subjects)
        expect(subjectMatches(pattern, subject), `${JSON.stringify(pattern)} vs ${JSON.stringify(subject)}`).toBe(byRegExp(pattern, subject));
    }
  });

  it("answer a pattern that makes a backtracking matcher take seconds at once", () => {
    // A backtracking matcher took 1.6 s on this one, five times longer per extra star.
    expect(subjectMatches("*a*a*a*a*a*a*a*b", "a".repeat(40))).toBe(false);
    expect(subjectMatches("*a*a*a*a*a*a*a*b", `${"a".repeat(40)}b`)).toBe(true);
  });
});
