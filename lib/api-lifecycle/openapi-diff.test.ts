import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { notificationsDocument } from "../notifications/openapi";
import { diffOpenApi } from "./openapi-diff";

// biome-ignore lint/suspicious/noExplicitAny: the cases edit documents at any depth, which is what a document is
type Json = Record<string, any>;

const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));

/** A one-operation document: `operation` is the POST /things operation; `schemas` go under components. */
function doc(operation: Json, schemas: Json = {}): Json {
  return {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: { "/things/{id}": { post: { responses: { 200: { description: "ok" } }, ...operation } } },
    components: { schemas },
  };
}

const jsonBody = (schema: Json) => ({ requestBody: { required: true, content: { "application/json": { schema } } } });
const jsonAnswer = (schema: Json) => ({ responses: { 200: { description: "ok", content: { "application/json": { schema } } } } });
const changesOf = (from: Json, to: Json) => diffOpenApi(from, to).changed.flatMap((operation) => operation.changes);

describe("diffOpenApi over the Notifications API's own document", () => {
  const original = notificationsDocument({ gatewayUrl: "https://gw.example/gw/sandbox" }) as Json;

  it("finds nothing between a document and itself", () => {
    expect(diffOpenApi(original, structuredClone(original))).toEqual({ added: [], removed: [], changed: [], breaking: false });
  });

  it("finds each edit of a copy, and marks the breaking ones", () => {
    const edited = structuredClone(original);
    delete edited.paths["/v1/notifications/{id}"].get;
    delete edited.components.schemas.Notification.properties.link;
    const list = edited.paths["/v1/notifications"].get;
    list.parameters.push({ name: "tenant", in: "query", required: true, schema: { type: "string" } });
    list.parameters.find((parameter: Json) => parameter.name === "status").schema.maxLength = 50;
    edited.components.schemas.UpdateNotification.properties.status.enum = ["unread", "read"];
    edited.paths["/v1/notifications"].post = { summary: "Send a notification", responses: { 201: { description: "Created" } } };

    const diff = diffOpenApi(original, edited);

    expect(diff.breaking).toBe(true);
    expect(diff.added).toEqual([{ method: "POST", path: "/v1/notifications", summary: "Send a notification" }]);
    expect(diff.removed).toEqual([{ method: "GET", path: "/v1/notifications/{id}", summary: expect.any(String) }]);
    const byOperation = Object.fromEntries(diff.changed.map((operation) => [`${operation.method} ${operation.path}`, operation]));
    expect(Object.keys(byOperation).sort()).toEqual(["GET /v1/notifications", "PUT /v1/notifications/{id}"]);
    expect(byOperation["GET /v1/notifications"]!.changes).toEqual([
      { breaking: true, message: 'query parameter "status": maxLength lowered from 100 to 50' },
      { breaking: true, message: 'required query parameter "tenant" added' },
      { breaking: true, message: "response 200.items[].link: response field removed" },
    ]);
    expect(byOperation["PUT /v1/notifications/{id}"]!.changes).toEqual([
      { breaking: true, message: 'request body.status: enum values removed: "archived"' },
      { breaking: true, message: "response 200.link: response field removed" },
    ]);
  });
});

describe("diffOpenApi over a public document pair: the Swagger Petstore in OpenAPI 3.0 and 3.1", () => {
  it("finds the one contract change, the image upload's body, and nothing in the 3.0-to-3.1 rewrites", () => {
    const diff = diffOpenApi(fixture("petstore-3.0.json"), fixture("petstore-3.1.json"));
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    expect(diff.changed).toEqual([
      {
        method: "POST",
        path: "/pet/{petId}/uploadImage",
        summary: "uploads an image",
        breaking: true,
        changes: [
          { breaking: true, message: "request body no longer accepts multipart/form-data" },
          { breaking: false, message: "request body accepts application/octet-stream" },
        ],
      },
    ]);
    expect(diff.breaking).toBe(true);
  });

  it("counts every Petstore operation as removed against an empty document, and as added the other way", () => {
    const empty = { openapi: "3.0.0", info: { title: "t", version: "1" }, paths: {} };
    expect(diffOpenApi(fixture("petstore-3.0.json"), empty).removed).toHaveLength(20);
    expect(diffOpenApi(empty, fixture("petstore-3.1.json"))).toMatchObject({ removed: [], changed: [], breaking: false });
  });
});

describe("diffOpenApi's rules", () => {
  it("a removed operation is breaking, an added one is not", () => {
    const one = doc({});
    const two = structuredClone(one);
    two.paths["/things/{id}"].get = { responses: { 200: { description: "ok" } } };
    expect(diffOpenApi(one, two)).toMatchObject({ added: [{ method: "GET", path: "/things/{id}" }], breaking: false });
    expect(diffOpenApi(two, one)).toMatchObject({ removed: [{ method: "GET", path: "/things/{id}" }], breaking: true });
  });

  it("renaming a path parameter changes nothing for a caller", () => {
    const one = doc({ parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }] });
    const two = {
      ...one,
      paths: {
        "/things/{thingId}": {
          post: { ...one.paths["/things/{id}"].post, parameters: [{ name: "thingId", in: "path", required: true, schema: { type: "string" } }] },
        },
      },
    };
    expect(diffOpenApi(one, two)).toEqual({ added: [], removed: [], changed: [], breaking: false });
  });

  it("a removed parameter is breaking, path-level ones included", () => {
    const one = doc({ parameters: [{ name: "q", in: "query", schema: { type: "string" } }] });
    one.paths["/things/{id}"].parameters = [{ name: "X-Tenant", in: "header", schema: { type: "string" } }];
    expect(changesOf(one, doc({}))).toEqual([
      { breaking: true, message: 'header parameter "X-Tenant" removed' },
      { breaking: true, message: 'query parameter "q" removed' },
    ]);
  });

  it("a new required input is breaking: a required parameter, a parameter made required, a required body property", () => {
    const one = doc({
      parameters: [{ name: "q", in: "query", schema: { type: "string" } }],
      ...jsonBody({ type: "object", properties: { a: { type: "string" } } }),
    });
    const two = doc({
      parameters: [
        { name: "q", in: "query", required: true, schema: { type: "string" } },
        { name: "page", in: "query", schema: { type: "integer" } },
      ],
      ...jsonBody({ type: "object", required: ["a", "b"], properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } }),
    });
    expect(changesOf(one, two)).toEqual([
      { breaking: true, message: 'query parameter "q" became required' },
      { breaking: false, message: 'query parameter "page" added' },
      { breaking: true, message: "request body.a: became required" },
      { breaking: true, message: "request body.b: required property added" },
      { breaking: false, message: "request body.c: property added" },
    ]);
  });

  it("a required request body where there was none is breaking", () => {
    expect(changesOf(doc({}), doc(jsonBody({ type: "object" })))).toEqual([{ breaking: true, message: "required request body added" }]);
  });

  it("a removed response field is breaking, through $refs and arrays; an added one is not", () => {
    const item = (properties: Json) => ({ type: "object", properties });
    const one = doc(jsonAnswer({ type: "array", items: { $ref: "#/components/schemas/Item" } }), {
      Item: item({ id: { type: "string" }, name: { type: "string" } }),
    });
    const two = doc(jsonAnswer({ type: "array", items: { $ref: "#/components/schemas/Item" } }), {
      Item: item({ id: { type: "string" }, size: { type: "integer" } }),
    });
    expect(changesOf(one, two)).toEqual([
      { breaking: true, message: "response 200[].name: response field removed" },
      { breaking: false, message: "response 200[].size: property added" },
    ]);
  });

  it("a response field that is no longer required may be absent, which is breaking", () => {
    const one = doc(jsonAnswer({ type: "object", required: ["id"], properties: { id: { type: "string" } } }));
    const two = doc(jsonAnswer({ type: "object", properties: { id: { type: "string" } } }));
    expect(changesOf(one, two)).toEqual([{ breaking: true, message: "response 200.id: may be absent from the response" }]);
  });

  it("allOf members read as one object", () => {
    const one = doc(
      jsonAnswer({
        allOf: [
          { type: "object", properties: { id: { type: "string" } } },
          { type: "object", properties: { name: { type: "string" } } },
        ],
      }),
    );
    const two = doc(jsonAnswer({ type: "object", properties: { id: { type: "string" } } }));
    expect(changesOf(one, two)).toEqual([{ breaking: true, message: "response 200.name: response field removed" }]);
  });

  describe("narrowed input types are breaking, widened ones are not", () => {
    const cases: [string, Json, Json, boolean, string][] = [
      ["type changed", { type: "string" }, { type: "integer" }, true, "type changed from string to integer"],
      ["number to integer", { type: "number" }, { type: "integer" }, true, "type narrowed from number to integer"],
      ["integer to number", { type: "integer" }, { type: "number" }, false, "type changed from integer to number"],
      ["3.0 nullable removed", { type: "string", nullable: true }, { type: "string" }, true, "type narrowed from string | null to string"],
      ["3.1 null type removed", { type: ["string", "null"] }, { type: "string" }, true, "type narrowed from string | null to string"],
      ["enum value removed", { type: "string", enum: ["a", "b"] }, { type: "string", enum: ["a"] }, true, 'enum values removed: "b"'],
      ["enum value added", { type: "string", enum: ["a"] }, { type: "string", enum: ["a", "b"] }, false, 'enum values added: "b"'],
      ["enum introduced", { type: "string" }, { type: "string", enum: ["a"] }, true, 'restricted to "a"'],
      ["maxLength lowered", { type: "string", maxLength: 10 }, { type: "string", maxLength: 5 }, true, "maxLength lowered from 10 to 5"],
      ["maxLength set", { type: "string" }, { type: "string", maxLength: 5 }, true, "maxLength lowered from none to 5"],
      ["maximum raised", { type: "integer", maximum: 5 }, { type: "integer", maximum: 10 }, false, "maximum raised from 5 to 10"],
      ["minimum raised", { type: "integer", minimum: 0 }, { type: "integer", minimum: 1 }, true, "minimum raised from 0 to 1"],
      ["pattern added", { type: "string" }, { type: "string", pattern: "^a" }, true, "pattern added: ^a"],
      ["format added", { type: "string" }, { type: "string", format: "email" }, true, "format added: email"],
    ];
    it.each(cases)("%s", (_, before, after, breaking, message) => {
      const parameter = (schema: Json) => doc({ parameters: [{ name: "q", in: "query", schema }] });
      expect(changesOf(parameter(before), parameter(after))).toEqual([{ breaking, message: `query parameter "q": ${message}` }]);
    });

    it("a body that stops accepting undeclared properties", () => {
      expect(changesOf(doc(jsonBody({ type: "object" })), doc(jsonBody({ type: "object", additionalProperties: false })))).toEqual([
        { breaking: true, message: "request body: no longer accepts undeclared properties" },
      ]);
    });
  });

  it("a response type that answers something new is breaking, since the client parses it; one that answers less is not", () => {
    const answer = (n: Json) => doc(jsonAnswer({ type: "object", properties: { n } }));
    expect(changesOf(answer({ type: "integer" }), answer({ type: "string" }))).toEqual([
      { breaking: true, message: "response 200.n: type changed from integer to string" },
    ]);
    expect(changesOf(answer({ type: "integer" }), answer({ type: "number" }))).toEqual([
      { breaking: true, message: "response 200.n: type changed from integer to number" },
    ]);
    expect(changesOf(answer({ type: "string", nullable: true }), answer({ type: "string" }))).toEqual([
      { breaking: false, message: "response 200.n: type narrowed from string | null to string" },
    ]);
  });

  it("a removed success response is breaking; deprecating an operation is not", () => {
    const two = doc({ deprecated: true, responses: { 201: { description: "created" } } });
    expect(changesOf(doc({}), two)).toEqual([
      { breaking: false, message: "deprecated" },
      { breaking: true, message: "success response 200 removed" },
      { breaking: false, message: "success response 201 added" },
    ]);
  });

  it("compares a circular schema once and ends", () => {
    const node = (extra: Json) => ({ Node: { type: "object", properties: { child: { $ref: "#/components/schemas/Node" }, ...extra } } });
    const one = doc(jsonAnswer({ $ref: "#/components/schemas/Node" }), node({ name: { type: "string" } }));
    const two = doc(jsonAnswer({ $ref: "#/components/schemas/Node" }), node({}));
    expect(changesOf(one, two)).toEqual([{ breaking: true, message: "response 200.name: response field removed" }]);
  });
});
