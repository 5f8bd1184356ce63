import { describe, expect, it } from "vitest";
import { adviceForResponseBody, PROBLEM_TYPES, problemAdvice, problemCodeFromType } from "./problem-advice";

describe("problem advice", () => {
  it("has a page for every registered problem type", () => {
    expect(PROBLEM_TYPES.map((problem) => problem.code)).toContain("method-not-allowed");
    expect(problemAdvice("portal-unavailable")).toMatchObject({ status: 502, title: "Portal unavailable" });
    expect(problemAdvice("toString")).toBeUndefined();
  });

  it("reads the code from a problem type URI", () => {
    expect(problemCodeFromType("https://portal.example/problems/token-expired")).toBe("token-expired");
    expect(problemCodeFromType("about:blank")).toBeUndefined();
  });

  it("advises on gateway problems and token endpoint errors, and on nothing else", () => {
    expect(adviceForResponseBody({ type: "http://localhost:3000/problems/scope-missing", status: 403 })?.title).toBe("Token lacks the required scope");
    expect(adviceForResponseBody({ error: "invalid_client" })?.code).toBe("invalid_client");
    expect(adviceForResponseBody({ error: "toString" })).toBeUndefined();
    expect(adviceForResponseBody({ items: [] })).toBeUndefined();
    expect(adviceForResponseBody("text")).toBeUndefined();
  });
});
