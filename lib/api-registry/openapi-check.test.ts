import { describe, expect, it } from "vitest";
import { checkOpenApiDocument, checkOpenApiValue, MAX_DOCUMENT_DEPTH } from "./openapi-check";

const HEAD = "info: {title: T, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n";

describe("checkOpenApiDocument", () => {
  it("accepts OpenAPI 3.0 and 3.1 in JSON or YAML, resolving internal $refs, and keeps every member", async () => {
    const yaml = await checkOpenApiDocument(
      `openapi: 3.1.0\n${HEAD}        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}\n      x-extra: 1\ncomponents: {schemas: {A: {type: [object, 'null']}}}\n`,
    );
    expect(yaml).toMatchObject({ ok: true, version: "3.1.0" });
    expect(yaml.ok && JSON.parse(yaml.json).paths["/x"].get["x-extra"]).toBe(1);
    const json = await checkOpenApiDocument(JSON.stringify({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {} }));
    expect(json).toMatchObject({ ok: true, version: "3.0.3" });
  });

  it("checks against the document's own version", async () => {
    // `type` as a list is JSON Schema 2020-12, valid in 3.1 only.
    const schema = "        '200': {description: ok, content: {application/json: {schema: {type: [object, 'null']}}}}\n";
    expect((await checkOpenApiDocument(`openapi: 3.1.0\n${HEAD}${schema}`)).ok).toBe(true);
    const as30 = await checkOpenApiDocument(`openapi: 3.0.3\n${HEAD}${schema}`);
    expect(as30.ok).toBe(false);
    expect(!as30.ok && as30.errors[0]!.pointer).toMatch(/^\/paths\/~1x\/get\/responses\/200\/content\/application~1json\/schema/);
  });

  it.each([
    ["swagger: '2.0'", [{ pointer: "/openapi", message: "must be an OpenAPI version 3.0.x or 3.1.x" }]],
    ["openapi: 3.2.0\ninfo: {title: T, version: '1'}\npaths: {}", [{ pointer: "/openapi", message: "must be an OpenAPI version 3.0.x or 3.1.x" }]],
    [`openapi: 3.1.0\n${HEAD}        '200': {}\n`, [{ pointer: "/paths/~1x/get/responses/200", message: "must have required property 'description'" }]],
    [
      "openapi: 3.0.3\ninfo: {title: T}\npaths: {x: {}}",
      [
        { pointer: "/info", message: "must have required property 'version'" },
        { pointer: "/paths", message: "must NOT have additional properties (x)" },
      ],
    ],
    [
      `openapi: 3.1.0\n${HEAD}        '200': {$ref: '#/components/responses/Gone'}\n`,
      [{ pointer: "/paths/~1x/get/responses/200/$ref", message: 'points nowhere ("#/components/responses/Gone")' }],
    ],
    [
      `openapi: 3.1.0\n${HEAD}        '200': {$ref: 'https://example.com/responses.yaml#/Ok'}\n`,
      [{ pointer: "/paths/~1x/get/responses/200/$ref", message: expect.stringContaining("refers outside the document") }],
    ],
    ["{ not: [valid", [{ pointer: "", message: expect.stringContaining("neither JSON nor YAML") }]],
    ["just-a-file-name.yaml", [{ pointer: "", message: "must be an object" }]],
  ])("refuses %j with a pointer to each error", async (text, errors) => {
    expect(await checkOpenApiDocument(text)).toEqual({ ok: false, errors });
  });

  it("refuses a document nested deeper than any API's, naming where, before a check walks it off the stack", async () => {
    const nested = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    const documentWith = (example: unknown) => ({
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: { "/x": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { example } } } } } } } },
    });
    const example = "/paths/~1x/get/responses/200/content/application~1json/schema/example";
    // The example is nine levels below the document's root; 30,000 levels nest past the stack of every check.
    for (const depth of [MAX_DOCUMENT_DEPTH - 7, 30_000]) {
      const checked = await checkOpenApiValue(documentWith(nested(depth)));
      expect(checked).toEqual({
        ok: false,
        errors: [{ pointer: `${example}${"/0".repeat(MAX_DOCUMENT_DEPTH - 8)}`, message: "nests objects and arrays more than 256 levels deep" }],
      });
    }
    expect(await checkOpenApiValue(documentWith(nested(MAX_DOCUMENT_DEPTH - 8)))).toMatchObject({ ok: true });
    // As text, the YAML parser meets the depth first.
    const text = JSON.stringify(documentWith(null)).replace("null", `${"[".repeat(30_000)}${"]".repeat(30_000)}`);
    expect(await checkOpenApiDocument(text)).toEqual({ ok: false, errors: [{ pointer: "", message: "nests objects and arrays more than 256 levels deep" }] });
  });
});
