import { describe, expect, it } from "vitest";
import { MAX_SUBJECT_STARS } from "../oauth/subject-pattern";
import { trustSchema } from "./client-keys";

const trust = (subject: string) => trustSchema.safeParse({ issuer: "https://token.actions.githubusercontent.com", audience: "gatehouse", subject });

describe("a trusted subject", () => {
  it(`holds at most ${MAX_SUBJECT_STARS} "*" and 500 characters, naming the field otherwise`, () => {
    expect(trust("repo:acme/billing:ref:refs/heads/*").success).toBe(true);
    expect(trust("*a*a*a*a*a*a*a*b").success).toBe(true);
    expect(trust("x".repeat(500)).success).toBe(true);
    for (const subject of ["*a*a*a*a*a*a*a*a*b", "*".repeat(61), `${"*a".repeat(60)}*b`, "x".repeat(501)]) {
      const parsed = trust(subject);
      expect(parsed.success, subject).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["subject"]);
    }
  });
});
