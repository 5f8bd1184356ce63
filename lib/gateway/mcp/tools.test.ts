import { describe, expect, it } from "vitest";
import { mcpSettingsSchema } from "./settings";
import { deriveTools, sanitisedToolName } from "./tools";

const NO_LIFE = { deprecation: undefined, operations: new Map() };

const document = {
  openapi: "3.1.0",
  paths: {
    "/v1/items": {
      get: { operationId: "listItems", summary: "List items", parameters: [{ $ref: "#/components/parameters/Limit" }] },
      post: {
        operationId: "create item/now!",
        summary: "Create an item",
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } },
      },
    },
    "/v1/items/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: { operationId: "x".repeat(80), parameters: [{ name: "id", in: "query", schema: { type: "integer" } }] },
      delete: { summary: "Delete an item", deprecated: true },
      put: { operationId: "listItems", description: "Replace it." },
    },
  },
  components: {
    parameters: { Limit: { name: "limit", in: "query", description: "At most this many.", schema: { type: "integer", maximum: 100 } } },
    schemas: {
      Item: { type: "object", properties: { name: { type: "string" }, child: { $ref: "#/components/schemas/Item" } }, required: ["name"] },
    },
  },
};

describe("deriveTools", () => {
  const tools = deriveTools(document, { enabled: true }, NO_LIFE);
  const byPath = (method: string, path: string) => tools.find((tool) => tool.method === method && tool.path === path)!;

  it("names each tool from its operationId, valid for every client and unique", () => {
    expect(tools.map((tool) => tool.name)).toEqual(["listItems", "create_item_now_", "x".repeat(64), "listItems_2", "delete_v1_items__id_"]);
    for (const { name } of tools) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(sanitisedToolName("")).toBe("operation");
  });

  it("resolves $refs into the input schema, stopping a recursive schema", () => {
    expect(byPath("GET", "/v1/items").inputSchema).toEqual({
      type: "object",
      properties: { limit: { type: "integer", maximum: 100, description: "At most this many." } },
    });
    const body = byPath("POST", "/v1/items").inputSchema as unknown as { properties: { body: Record<string, unknown> }; required: string[] };
    expect(body.required).toEqual(["body"]);
    expect(body.properties.body.required).toEqual(["name"]);
    expect(JSON.stringify(body)).not.toContain('"$ref"');
  });

  it("keeps a path and a query parameter of one name apart", () => {
    const tool = byPath("GET", "/v1/items/{id}");
    expect(tool.arguments).toEqual([
      { property: "path_id", name: "id", in: "path" },
      { property: "query_id", name: "id", in: "query" },
    ]);
    expect(tool.inputSchema.required).toEqual(["path_id"]);
  });

  it("hints reads and deletions, and says an operation is deprecated", () => {
    expect(byPath("GET", "/v1/items").annotations).toMatchObject({ readOnlyHint: true });
    expect(byPath("DELETE", "/v1/items/{id}").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byPath("POST", "/v1/items").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byPath("DELETE", "/v1/items/{id}").description).toMatch(/^DEPRECATED: /);
    const marked = deriveTools(
      document,
      { enabled: true },
      {
        deprecation: undefined,
        operations: new Map([["GET /v1/items", { deprecatedAt: Date.parse("2026-01-02"), sunsetAt: Date.parse("2027-03-04") }]]),
      },
    );
    expect(marked[0]!.description).toBe(
      "DEPRECATED since 2026-01-02; it stops working on 2027-03-04: prefer another operation where one exists.\n\nList items",
    );
  });

  it("narrows the tools by include and exclude and renames them by toolNames", () => {
    const settings = mcpSettingsSchema.parse({
      enabled: true,
      include: ["GET /v1/items", "POST /v1/items", "PUT /v1/items/{id}"],
      exclude: ["POST /v1/items"],
      toolNames: { "PUT /v1/items/{id}": "listItems", "GET /v1/items": "list" },
    });
    expect(deriveTools(document, settings, NO_LIFE).map((tool) => `${tool.name} ${tool.method} ${tool.path}`)).toEqual([
      "list GET /v1/items",
      "listItems PUT /v1/items/{id}",
    ]);
  });

  it("refuses tool names clients break on, and one name for two operations", () => {
    expect(mcpSettingsSchema.safeParse({ enabled: true, toolNames: { "GET /a": "has space" } }).success).toBe(false);
    expect(mcpSettingsSchema.safeParse({ enabled: true, toolNames: { "GET /a": "y".repeat(65) } }).success).toBe(false);
    expect(mcpSettingsSchema.safeParse({ enabled: true, toolNames: { "GET /a": "same", "GET /b": "same" } }).success).toBe(false);
    expect(mcpSettingsSchema.safeParse({ enabled: true, include: ["get /a"] }).success).toBe(false);
  });
});
