import { describe, expect, it } from "vitest";
import { compileDocumentValidators, MAX_VALIDATION_ERRORS, type RequestFacts } from "./compile";

function headers(values: Record<string, string> = {}): RequestFacts["headers"] {
  const map = new Map(Object.entries(values).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name) => map.get(name.toLowerCase()) ?? null, forEach: (callback) => map.forEach(callback) };
}

function facts(path: string, search = "", options: { headers?: Record<string, string>; body?: unknown } = {}): RequestFacts {
  const body = options.body === undefined ? null : new TextEncoder().encode(typeof options.body === "string" ? options.body : JSON.stringify(options.body));
  return { path, search, headers: headers(options.headers), body };
}

const document31 = {
  openapi: "3.1.0",
  info: { title: "Items", version: "1" },
  paths: {
    "/v1/items/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } }],
      get: {
        parameters: [
          { name: "tags", in: "query", schema: { type: "array", items: { type: "string", maxLength: 3 } } },
          { name: "ids", in: "query", style: "form", explode: false, schema: { type: "array", items: { type: "integer" } } },
          { name: "pipes", in: "query", style: "pipeDelimited", schema: { type: "array", items: { type: "integer" } } },
          { name: "filter", in: "query", style: "deepObject", explode: true, schema: { type: "object", properties: { size: { type: "integer" } } } },
          { name: "X-Trace-Level", in: "header", required: true, schema: { type: "integer", maximum: 3 } },
        ],
      },
    },
    "/v1/label/{point}": {
      get: {
        parameters: [{ name: "point", in: "path", required: true, style: "label", schema: { type: "array", items: { type: "number" } } }],
      },
    },
    "/v1/matrix/{point}": {
      get: {
        parameters: [
          { name: "point", in: "path", required: true, style: "matrix", explode: true, schema: { type: "object", properties: { x: { type: "integer" } } } },
        ],
      },
    },
    "/v1/items": {
      post: {
        requestBody: { $ref: "#/components/requestBodies/NewItem" },
      },
    },
  },
  components: {
    requestBodies: {
      NewItem: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } }, "text/plain": {} } },
    },
    schemas: {
      Item: {
        type: "object",
        required: ["name"],
        additionalProperties: false,
        properties: { name: { type: "string", minLength: 1 }, price: { type: ["number", "null"] }, tags: { type: "array", items: { type: "string" } } },
      },
    },
  },
};

describe("compiled request validators (OpenAPI 3.1)", () => {
  const validators = compileDocumentValidators(document31)!;

  it("reads path, query and header parameters in their styles and checks them against their schemas", () => {
    const get = validators("GET", "/v1/items/{id}")!;
    expect(get.readsBody).toBe(false);
    expect(get.validate(facts("/v1/items/7", "?tags=a&tags=b&ids=1,2&pipes=1|2&filter[size]=4", { headers: { "x-trace-level": "2" } }))).toEqual([]);
    expect(get.validate(facts("/v1/items/0", "?tags=abcd&ids=1,x&pipes=1|y&filter[size]=big", { headers: { "x-trace-level": "9" } }))).toEqual([
      { in: "path", name: "id", message: "must be >= 1" },
      { in: "query", name: "tags", message: "/0: must NOT have more than 3 characters" },
      { in: "query", name: "ids", message: "/1: must be integer" },
      { in: "query", name: "pipes", message: "/1: must be integer" },
      { in: "query", name: "filter", message: "/size: must be integer" },
      { in: "header", name: "X-Trace-Level", message: "must be <= 3" },
    ]);
    expect(get.validate(facts("/v1/items/1"))).toEqual([{ in: "header", name: "X-Trace-Level", message: "is required" }]);
  });

  it("reads label and matrix path styles, and names a value written in another style", () => {
    expect(validators("GET", "/v1/label/{point}")!.validate(facts("/v1/label/.1.5,2"))).toEqual([]);
    expect(validators("GET", "/v1/label/{point}")!.validate(facts("/v1/label/1,2"))).toEqual([
      { in: "path", name: "point", message: "is not written in the label style" },
    ]);
    expect(validators("GET", "/v1/matrix/{point}")!.validate(facts("/v1/matrix/;x=3"))).toEqual([]);
    expect(validators("GET", "/v1/matrix/{point}")!.validate(facts("/v1/matrix/;x=a"))).toEqual([
      { in: "path", name: "point", message: "/x: must be integer" },
    ]);
  });

  it("reads objects and arrays in simple, form and spaceDelimited styles, and refuses an empty number", () => {
    const validators = compileDocumentValidators({
      openapi: "3.1.0",
      paths: {
        "/x/{o}": {
          get: {
            parameters: [
              {
                name: "o",
                in: "path",
                required: true,
                explode: true,
                schema: { type: "object", properties: { role: { type: "string" }, n: { type: "integer" } } },
              },
              { name: "n", in: "query", schema: { type: "integer" } },
              { name: "b", in: "query", schema: { type: "boolean" } },
              { name: "s", in: "query", style: "spaceDelimited", explode: false, schema: { type: "array", items: { type: "integer" } } },
              { name: "f", in: "query", explode: false, schema: { type: "object", properties: { a: { type: "integer" } } } },
              { name: "X-L", in: "header", schema: { type: "array", items: { type: "integer" } } },
            ],
          },
        },
      },
    })!;
    const get = validators("GET", "/x/{o}")!;
    expect(get.validate(facts("/x/role=admin,n=3", "?n=4&b=true&s=1%202&f=a,1", { headers: { "x-l": "1, 2" } }))).toEqual([]);
    expect(get.validate(facts("/x/role=admin,n=x", "?n=&b=yes&s=1%202+x&f=a,z", { headers: { "x-l": "1, 2, q" } }))).toEqual([
      { in: "path", name: "o", message: "/n: must be integer" },
      { in: "query", name: "n", message: "must be integer" },
      { in: "query", name: "b", message: "must be boolean" },
      { in: "query", name: "s", message: "/2: must be integer" },
      { in: "query", name: "f", message: "/a: must be integer" },
      { in: "header", name: "X-L", message: "/2: must be integer" },
    ]);
  });

  it("checks a $ref'd body: required, its content type and its schema, pointing at each failing value", () => {
    const post = validators("POST", "/v1/items")!;
    expect(post.readsBody).toBe(true);
    const json = { "content-type": "application/json; charset=utf-8" };
    expect(post.validate(facts("/v1/items", "", { headers: json, body: { name: "pen", price: null } }))).toEqual([]);
    expect(post.validate(facts("/v1/items", "", { headers: json, body: { price: "1", extra: true } }))).toEqual([
      { in: "body", pointer: "/name", message: "must have required property 'name'" },
      { in: "body", pointer: "/extra", message: "must NOT have additional properties" },
      { in: "body", pointer: "/price", message: "must be number,null" },
    ]);
    expect(post.validate(facts("/v1/items", "", { headers: json }))).toEqual([{ in: "body", pointer: "", message: "is required" }]);
    expect(post.validate(facts("/v1/items", "", { headers: json, body: "{" }))).toEqual([{ in: "body", pointer: "", message: "is not valid JSON" }]);
    expect(post.validate(facts("/v1/items", "", { headers: { "content-type": "application/xml" }, body: "<a/>" }))).toEqual([
      { in: "header", name: "content-type", message: "must be one of: application/json, text/plain" },
    ]);
    expect(post.validate(facts("/v1/items", "", { headers: { "content-type": "text/plain" }, body: "anything" }))).toEqual([]);
  });

  it(`reports at most ${MAX_VALIDATION_ERRORS} errors`, () => {
    const tags = Array.from({ length: 30 }, () => 1);
    const errors = validators("POST", "/v1/items")!.validate(
      facts("/v1/items", "", { headers: { "content-type": "application/json" }, body: { name: "x", tags } }),
    );
    expect(errors).toHaveLength(MAX_VALIDATION_ERRORS);
  });

  it("has no validator for an operation the document does not declare; HEAD is checked as GET", () => {
    expect(validators("DELETE", "/v1/items")).toBeUndefined();
    expect(validators("HEAD", "/v1/items/{id}")).toBe(validators("GET", "/v1/items/{id}"));
  });
});

describe("compiled request validators (OpenAPI 3.0)", () => {
  const validators = compileDocumentValidators({
    openapi: "3.0.3",
    info: { title: "Items", version: "1" },
    paths: {
      "/items": {
        post: {
          requestBody: {
            content: {
              "application/*": {
                schema: {
                  type: "object",
                  required: ["id", "count"],
                  properties: {
                    id: { type: "string", readOnly: true },
                    count: { type: "integer", minimum: 0, exclusiveMinimum: true },
                    note: { type: "string", nullable: true },
                  },
                },
              },
            },
          },
        },
      },
    },
  })!;

  it("reads nullable and draft 04's exclusiveMinimum, and matches a media type range", () => {
    const post = validators("POST", "/items")!;
    const type = { "content-type": "application/vnd.items+json" };
    expect(post.validate(facts("/items", "", { headers: type, body: { id: "a", count: 1, note: null } }))).toEqual([]);
    expect(post.validate(facts("/items", "", { headers: type, body: { id: "a", count: 0 } }))).toEqual([
      { in: "body", pointer: "/count", message: "must be > 0" },
    ]);
  });

  it("does not require a read-only property in a request", () => {
    expect(validators("POST", "/items")!.validate(facts("/items", "", { headers: { "content-type": "application/json" }, body: { count: 1 } }))).toEqual([]);
  });

  it("checks nothing in a body that is not required and not sent", () => {
    expect(validators("POST", "/items")!.validate(facts("/items"))).toEqual([]);
  });
});

describe("documents and values Ajv cannot take", () => {
  it("compiles none for Swagger 2.0, text that is not a document, or a document with one $id twice", () => {
    expect(compileDocumentValidators({ swagger: "2.0", paths: {} })).toBeNull();
    expect(compileDocumentValidators(null)).toBeNull();
    const twice = { $id: "https://example.test/item", type: "string" };
    expect(compileDocumentValidators({ openapi: "3.1.0", paths: { "/a": { $ref: "#/%zz" } } })!("GET", "/a")).toBeUndefined();
    expect(compileDocumentValidators({ openapi: "3.1.0", paths: {}, components: { schemas: { a: twice, b: twice } } })).toBeNull();
  });

  it("leaves an operation whose schema does not compile unchecked, and the others checked", () => {
    const validators = compileDocumentValidators({
      openapi: "3.1.0",
      paths: {
        "/broken": { post: { requestBody: { content: { "application/json": { schema: { type: "string", pattern: "(" } } } } } },
        "/fine": { get: { parameters: [{ name: "n", in: "query", required: true, schema: { type: "integer" } }] } },
      },
    })!;
    expect(validators("POST", "/broken")).toBeUndefined();
    expect(validators("GET", "/fine")!.validate(facts("/fine"))).toEqual([{ in: "query", name: "n", message: "is required" }]);
  });

  it("refuses a body nested deeper than a recursive schema can walk, rather than failing", () => {
    const validators = compileDocumentValidators({
      openapi: "3.1.0",
      paths: { "/trees": { post: { requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Tree" } } } } } } },
      components: { schemas: { Tree: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } },
    })!;
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    expect(validators("POST", "/trees")!.validate(facts("/trees", "", { headers: { "content-type": "application/json" }, body: deep }))).toEqual([
      { in: "body", pointer: "", message: "is nested too deeply to check" },
    ]);
  });
});
