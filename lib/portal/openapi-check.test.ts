import { describe, expect, it } from "vitest";
import { checkOpenApiDocument } from "./openapi-check";

describe("checkOpenApiDocument", () => {
  it("accepts OpenAPI 3.0 and 3.1 in JSON or YAML and keeps every member", () => {
    const yaml = checkOpenApiDocument("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /x:\n    get:\n      x-extra: 1\n      responses: {}\n");
    expect(yaml.ok && JSON.parse(yaml.json).paths["/x"].get["x-extra"]).toBe(1);
    expect(checkOpenApiDocument(JSON.stringify({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {} })).ok).toBe(true);
  });

  it.each([
    ["swagger: '2.0'", "openapi"],
    ["openapi: 3.1.0\ninfo: {title: T}\npaths: {}", "info.version"],
    ["openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {x: {}}", "paths.x"],
    ["openapi: 3.1.0\ninfo: {title: T, version: '1'}", "needs paths, webhooks or components"],
    ["{ not: [valid", "neither JSON nor YAML"],
  ])("refuses %j, naming %j", (text, fragment) => {
    const result = checkOpenApiDocument(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(fragment);
  });
});
