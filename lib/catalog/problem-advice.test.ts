import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adviceForResponseBody, PROBLEM_TYPES, problemAdvice, problemCodeFromType } from "./problem-advice";

const LIB = join(import.meta.dirname, "..");

/** Every problem code thrown anywhere in lib/, so each `type` URI has a page to land on. */
function thrownProblemCodes(): Set<string> {
  const codes = new Set<string>();
  const files = readdirSync(LIB, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.startsWith("generated"),
  );
  for (const file of files) {
    for (const match of readFileSync(join(LIB, file), "utf8").matchAll(/ProblemError\(\s*\d{3},\s*"([a-z-]+)"/g)) {
      codes.add(match[1]!);
    }
  }
  return codes;
}

describe("problem advice", () => {
  it("explains every problem type thrown in lib/", () => {
    const missing = [...thrownProblemCodes()].filter((code) => !problemAdvice(code));
    expect(missing).toEqual([]);
  });

  it("has one entry per code", () => {
    const codes = PROBLEM_TYPES.map((problem) => problem.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("reads the code from a problem type URI", () => {
    expect(problemCodeFromType("https://portal.example/problems/token-expired")).toBe("token-expired");
    expect(problemCodeFromType("about:blank")).toBeUndefined();
  });

  it("advises on gateway problems and token endpoint errors, and on nothing else", () => {
    expect(adviceForResponseBody({ type: "http://localhost:3000/problems/scope-missing", status: 403 })?.title).toBe(
      "Token lacks the required scope",
    );
    expect(adviceForResponseBody({ error: "invalid_client" })?.code).toBe("invalid_client");
    expect(adviceForResponseBody({ error: "toString" })).toBeUndefined();
    expect(adviceForResponseBody({ items: [] })).toBeUndefined();
    expect(adviceForResponseBody("text")).toBeUndefined();
  });
});
