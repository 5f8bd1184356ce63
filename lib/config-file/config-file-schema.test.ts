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
    expect(schema.properties.apis.items.required.sort()).toEqual(["environments", "name", "slug", "summary", "visibility"]);
    expect(schema.properties.apis.items.additionalProperties).toBe(false);
    expect(configFileSchema.safeParse({ apis: [], extra: 1 }).success).toBe(false);
  });

  it("takes an API's authentication methods, any of oauth2 and apiKey, each once; left out, [oauth2]", () => {
    const api = { slug: "orders", name: "Orders", summary: "Orders", version: "1.0.0", visibility: "protected", environments: {} };
    const methods = (authentication?: unknown) => configFileSchema.safeParse({ apis: [{ ...api, authentication }] }).data?.apis[0]?.authentication;
    expect(methods()).toEqual(["oauth2"]);
    expect(methods(["oauth2", "apiKey"])).toEqual(["oauth2", "apiKey"]);
    expect(methods(["apiKey"])).toEqual(["apiKey"]);
    for (const refused of [[], ["basic"], ["apiKey", "apiKey"], "oauth2"]) expect(methods(refused)).toBeUndefined();
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

  it("takes versions with dates as text or as the Dates a YAML 1.1 parser makes, and no top-level version or document beside them", () => {
    const api = { slug: "orders", name: "Orders", summary: "Orders", visibility: "protected", environments: {} };
    const versions = (deprecatedAt: unknown) => [
      { version: "v1", openapi: "./orders-v1.yaml", status: "deprecated", deprecatedAt, sunsetAt: "2027-06-30" },
      { version: "v2", openapi: "./orders-v2.yaml", status: "current" },
    ];
    const parse = (entry: Record<string, unknown>) => configFileSchema.safeParse({ apis: [{ ...api, ...entry }] });
    expect(parse({ versions: versions("2026-11-01") }).success).toBe(true);
    expect(parse({ versions: versions(new Date("2026-11-01T00:00:00Z")) }).data?.apis[0]?.versions?.[0]?.deprecatedAt).toEqual(
      new Date("2026-11-01T00:00:00Z"),
    );
    expect(parse({ versions: versions("2026-11-01T09:30:00Z") }).success).toBe(true);
    expect(parse({ versions: versions("1 November") }).success).toBe(false);
    expect(parse({ versions: versions("2026-11-01"), version: "1.0.0" }).error?.issues.map((issue) => issue.path)).toEqual([["apis", 0, "version"]]);
    expect(parse({ versions: versions("2026-11-01"), openapi: "./orders.yaml" }).success).toBe(false);
    expect(parse({}).error?.issues.map((issue) => issue.message)).toEqual(["Give the API a version, or list its versions"]);
    expect(parse({ versions: [{ version: "v1" }, { version: "v1" }] }).success).toBe(false);
    expect(parse({ versions: [{ version: "2" }] }).success).toBe(false);
  });
});
