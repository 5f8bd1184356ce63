import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeSamples } from "./code-samples";
import { firstGetOperation, listOperations } from "./operations";

const LOCAL = { tokenEndpoint: "http://localhost:3000/gw/sso-qa/oauth2/token", serverUrl: "http://localhost:3000/gw/sso-qa/notifications" };

describe("code samples", () => {
  it("are the ones the README shows, reading GATEHOUSE_URL", () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    for (const sample of codeSamples({ ...LOCAL, gatehouseUrl: "http://localhost:3000", operation: { method: "GET", path: "/v1/notifications" } })) {
      expect(readme).toContain(sample.code);
    }
  });

  it("read path parameters from the environment and quote URLs for each language", () => {
    const [curl, javascript, python] = codeSamples({
      ...LOCAL,
      serverUrl: "http://h/it's",
      operation: { method: "PUT", path: "/v1/items/{item-id}", bodyExample: { status: "read" } },
    });
    expect(curl!.code).toContain(`curl -sS --fail-with-body -X PUT 'http://h/it'\\''s/v1/items/'"$ITEM_ID"`);
    expect(curl!.code).toContain(`--data-raw '{"status":"read"}'`);
    expect(javascript!.code).toContain(`fetch("http://h/it's/v1/items/" + encodeURIComponent(process.env.ITEM_ID), {`);
    expect(python!.code).toContain(`"http://h/it's/v1/items/" + urllib.parse.quote(os.environ["ITEM_ID"], safe="")`);
    for (const sample of [curl, javascript, python]) expect(sample!.code).toMatch(/CLIENT_ID, CLIENT_SECRET and ITEM_ID/);
  });
});

describe("operations", () => {
  const document = {
    paths: {
      "/v1/items/{id}": {
        get: { summary: "One item", tags: ["Items"] },
        put: { summary: "Change it", requestBody: { content: { "application/json": { examples: { a: { value: { x: 1 } } } } } } },
      },
      "/v1/items": { get: { summary: "All items", operationId: "listItems" }, post: {} },
    },
  };

  it("lists every operation with its summary and first body example", () => {
    expect(listOperations(document)).toEqual([
      { method: "GET", path: "/v1/items/{id}", summary: "One item", operationId: undefined, tag: "Items", bodyExample: undefined },
      { method: "PUT", path: "/v1/items/{id}", summary: "Change it", operationId: undefined, tag: "default", bodyExample: { x: 1 } },
      { method: "GET", path: "/v1/items", summary: "All items", operationId: "listItems", tag: "default", bodyExample: undefined },
      { method: "POST", path: "/v1/items", summary: "", operationId: undefined, tag: "default", bodyExample: undefined },
    ]);
  });

  it("starts with a GET that needs no path parameter", () => {
    expect(firstGetOperation(document)?.path).toBe("/v1/items");
    expect(firstGetOperation({ paths: { "/v1/items": { post: {} } } })).toBeUndefined();
    expect(firstGetOperation({})).toBeUndefined();
  });
});
