import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFileJsonSchema, configFileSchema } from "./config-file-schema";

describe("the configuration file's schema", () => {
  it("is published under docs/ exactly as the portal serves it (npm run docs:config-schema writes it)", () => {
    const published = readFileSync(join(import.meta.dirname, "../../docs/gatehouse-config.schema.json"), "utf8");
    expect(JSON.parse(published)).toEqual(configFileJsonSchema());
  });

  it("leaves out what has a default, and refuses fields it does not know", () => {
    const schema = configFileJsonSchema() as { properties: { apis: { items: { required: string[]; additionalProperties: boolean } } } };
    expect(schema.properties.apis.items.required.sort()).toEqual(["environments", "name", "slug", "summary", "version", "visibility"]);
    expect(schema.properties.apis.items.additionalProperties).toBe(false);
    expect(configFileSchema.safeParse({ apis: [], extra: 1 }).success).toBe(false);
  });

  it("takes a guide as a Markdown file or as its text, never both or neither", () => {
    const api = { slug: "orders", name: "Orders", summary: "Orders", version: "1.0.0", visibility: "protected", environments: {} };
    const withGuide = (guide: Record<string, unknown>) =>
      configFileSchema.safeParse({ apis: [{ ...api, guides: [{ slug: "errors", title: "Errors", ...guide }] }] }).success;
    expect(withGuide({ markdown: "./errors.md" })).toBe(true);
    expect(withGuide({ content: "Every error is problem+json." })).toBe(true);
    expect(withGuide({ markdown: "./errors.md", content: "text" })).toBe(false);
    expect(withGuide({})).toBe(false);
    expect(withGuide({ slug: "Not A Slug", content: "text" })).toBe(false);
    expect(configFileSchema.safeParse({ apis: [api] }).success).toBe(true);
  });
});
