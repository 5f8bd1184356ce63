import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIGURATION_VARIABLES } from "../../lib/config";
import { PROBLEMS } from "../../lib/http/problem-types";

// docs/DESIGN.md is the contract users rely on; its tables of configuration variables and
// problem types are checked against the declarations the code reads.

const design = readFileSync(join(import.meta.dirname, "..", "..", "docs", "DESIGN.md"), "utf8");

/** The table rows of the section whose heading starts with `heading`, as arrays of cells. */
function tableRows(heading: string): string[][] {
  const start = design.indexOf(`\n## ${heading}`);
  expect(start, `DESIGN.md has a section "${heading}"`).toBeGreaterThan(-1);
  const end = design.indexOf("\n## ", start + 1);
  const section = design.slice(start, end === -1 ? undefined : end);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

const codesIn = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

describe("docs/DESIGN.md", () => {
  it("lists every configuration variable the code reads, and no other", () => {
    const documented = tableRows("11. Configuration").flatMap(([variables]) => codesIn(variables!));
    expect([...documented].sort()).toEqual([...CONFIGURATION_VARIABLES].sort());
  });

  it("lists every problem type with the status the registry gives it", () => {
    const documented = new Map<string, number>();
    for (const [codes, statuses] of tableRows("12. Problem types")) {
      const names = codesIn(codes!);
      const numbers = [...statuses!.matchAll(/\d{3}/g)].map((match) => Number(match[0]));
      names.forEach((name, index) => documented.set(name, numbers.length === names.length ? numbers[index]! : numbers[0]!));
    }
    const registry = new Map(Object.entries(PROBLEMS).map(([code, problem]) => [code, problem.status]));
    expect(Object.fromEntries([...documented].sort())).toEqual(Object.fromEntries([...registry].sort()));
  });
});
