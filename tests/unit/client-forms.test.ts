import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

const sources = ["app", "components"]
  .flatMap((dir) => readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" }).map((path) => join(dir, path)))
  .filter((file) => file.endsWith(".tsx"))
  .map((file) => ({ file, source: readFileSync(join(ROOT, file), "utf8") }));

/** The portal's forms that submit through a handler, by file: DESIGN.md §8 ("Forms that need JavaScript"). */
const handlerForms = sources.filter(({ source }) => source.includes("onSubmit={"));

/** The files with a click handler on some element. */
const clickHandlers = sources.filter(({ source }) => source.includes("onClick={"));

/** Each `<button …>` opening tag of `source`, read up to the `>` outside its braces (`=>` sits inside them). */
function buttonTags(source: string): string[] {
  return [...source.matchAll(/<button\b/g)].map(({ index }) => {
    let depth = 0;
    for (let at = index; at < source.length; at++) {
      const char = source[at];
      if (char === "{") depth++;
      else if (char === "}") depth--;
      else if (char === ">" && depth === 0) return source.slice(index, at + 1);
    }
    return source.slice(index);
  });
}

describe("controls that need JavaScript", () => {
  it("that submit a form through a handler are found", () => {
    expect(handlerForms.map(({ file }) => file)).toContain("components/auth/login-form.tsx");
  });

  // Submitted before hydration such a form sends its fields in its URL; SubmitButton stays disabled until then.
  it.each(handlerForms)("$file submits through SubmitButton only", ({ source }) => {
    expect(source).toContain("<SubmitButton");
    expect(source).not.toMatch(/type="submit"/);
  });

  it("with a click handler are found", () => {
    expect(clickHandlers.map(({ file }) => file)).toContain("components/admin/request-decision.tsx");
    expect(buttonTags('<button type="button" onClick={() => go()} className="x">Go</button>')).toEqual([
      '<button type="button" onClick={() => go()} className="x">',
    ]);
  });

  // A click before hydration reaches no handler and is lost without a sign; ActionButton stays disabled until then.
  it.each(clickHandlers)("$file clicks through ActionButton only", ({ source }) => {
    expect(buttonTags(source).filter((tag) => tag.includes("onClick="))).toEqual([]);
  });
});
