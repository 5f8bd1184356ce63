import { describe, expect, it } from "vitest";
import type { OpenApiDocumentRow } from "../data-plane/store";
import { createDocumentRoutes } from "./document-routes";

function documentWith(...paths: string[]): string {
  return JSON.stringify({ openapi: "3.1.0", info: { title: "Orders", version: "1" }, paths: Object.fromEntries(paths.map((path) => [path, {}])) });
}

describe("document routes", () => {
  it("reads and parses a document only when its API changed since the last load", async () => {
    const stored = new Map<string, OpenApiDocumentRow>([
      ["api_a", { apiId: "api_a", updatedAt: "t1", document: documentWith("/v1/orders/{id}") }],
      ["api_b", { apiId: "api_b", updatedAt: "t1", document: documentWith("/v1/items") }],
    ]);
    const reads: string[][] = [];
    const routes = createDocumentRoutes({
      async openapiDocuments(apiIds) {
        reads.push([...apiIds]);
        return apiIds.map((id) => stored.get(id)!);
      },
    });
    const versions = () => [...stored.values()].map(({ apiId, updatedAt }) => ({ apiId, updatedAt }));

    const first = await routes(versions());
    expect(first.get("api_a")!("/v1/orders/1")).toBe("/v1/orders/{id}");
    expect(first.get("api_b")!("/v1/items")).toBe("/v1/items");
    const again = await routes(versions());
    expect(again.get("api_a")).toBe(first.get("api_a"));

    stored.set("api_b", { apiId: "api_b", updatedAt: "t2", document: documentWith("/v2/items") });
    const changed = await routes(versions());
    expect(changed.get("api_a")).toBe(first.get("api_a"));
    expect(changed.get("api_b")!("/v1/items")).toBeUndefined();
    expect(changed.get("api_b")!("/v2/items")).toBe("/v2/items");
    expect(reads).toEqual([["api_a", "api_b"], ["api_b"]]);
  });

  it("gives an API whose stored document is not JSON no table, and an API that lost its document none either", async () => {
    let rows: OpenApiDocumentRow[] = [{ apiId: "api_c", updatedAt: "t1", document: "openapi: 3.1.0" }];
    const routes = createDocumentRoutes({ openapiDocuments: async () => rows });
    expect((await routes([{ apiId: "api_c", updatedAt: "t1" }])).has("api_c")).toBe(false);
    rows = [{ apiId: "api_c", updatedAt: "t2", document: documentWith("/x") }];
    expect((await routes([{ apiId: "api_c", updatedAt: "t2" }])).has("api_c")).toBe(true);
    expect((await routes([])).size).toBe(0);
  });
});
