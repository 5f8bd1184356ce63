import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith(".tsx") ? [path] : [];
  });
}

/** The portal's forms that submit through a handler, by file: DESIGN.md §8 ("Forms that need JavaScript"). */
const handlerForms = ["app", "components"]
  .flatMap((dir) => tsxFiles(join(ROOT, dir)))
  .filter((file) => readFileSync(file, "utf8").includes("onSubmit={"))
  .map((file) => ({ file: relative(ROOT, file), source: readFileSync(file, "utf8") }));

describe("forms that need JavaScript", () => {
  it("are found", () => {
    expect(handlerForms.map(({ file }) => file)).toContain("components/auth/login-form.tsx");
  });

  // Submitted before hydration such a form sends its fields in its URL; SubmitButton stays disabled until then.
  it.each(handlerForms)("$file submits through SubmitButton only", ({ source }) => {
    expect(source).toContain("<SubmitButton");
    expect(source).not.toMatch(/type="submit"/);
  });
});
