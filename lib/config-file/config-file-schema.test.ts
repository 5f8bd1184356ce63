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
});
