import { describe, expect, it } from "vitest";
import { problem, ProblemError } from "./problem";
import { isProblemCode, OAUTH_ERROR_ADVICE, PROBLEMS } from "./problem-types";

describe("problem registry", () => {
  it("gives each code an error status, a title and plain advice", () => {
    for (const [code, type] of Object.entries(PROBLEMS)) {
      expect(code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(type.status, code).toBeGreaterThanOrEqual(400);
      expect(type.status, code).toBeLessThan(600);
      for (const text of [type.title, type.explanation, type.advice]) expect(text.trim(), code).not.toBe("");
    }
  });

  it("uses one title per code, distinct across codes", () => {
    const titles = Object.values(PROBLEMS).map((type) => type.title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it("raises errors with the registry's status and title", () => {
    const error = problem("token-expired", { detail: "expired at noon" });
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ code: "token-expired", status: 401, title: PROBLEMS["token-expired"].title, detail: "expired at noon" });
    expect(new ProblemError("method-not-allowed").status).toBe(405);
  });

  it("knows only its own codes", () => {
    expect(isProblemCode("not-found")).toBe(true);
    expect(isProblemCode("hasOwnProperty")).toBe(false);
    // @ts-expect-error: an unknown code does not compile
    expect(() => problem("no-such-problem")).toThrow();
  });

  it("keeps the token endpoint's OAuth errors apart, with RFC 6749 codes", () => {
    for (const code of Object.keys(OAUTH_ERROR_ADVICE)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(isProblemCode(code)).toBe(false);
    }
  });
});
