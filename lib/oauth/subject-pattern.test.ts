import { describe, expect, it } from "vitest";
import { subjectMatches } from "./subject-pattern";

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
});
