import { describe, expect, it } from "vitest";
import type { OpenApiDocumentRow } from "../data-plane/store";
import { createDocumentRoutes } from "./document-routes";

function documentWith(...paths: string[]): string {
  return JSON.stringify({ openapi: "3.1.0", info: { title: "Orders", version: "1" }, paths: Object.fromEntries(paths.map((path) => [path, {}])) });
}

describe("document routes", () => {
  it("reads and parses a document only when its version changed since the last load", async () => {
    const stored = new Map<string, OpenApiDocumentRow>([
      ["apv_a", { versionId: "apv_a", updatedAt: "t1", document: documentWith("/v1/orders/{id}") }],
      ["apv_b", { versionId: "apv_b", updatedAt: "t1", document: documentWith("/v1/items") }],
    ]);
    const reads: string[][] = [];
    const routes = createDocumentRoutes({
      async openapiDocuments(versionIds) {
        reads.push([...versionIds]);
        return versionIds.map((id) => stored.get(id)!);
      },
    });
    const versions = () => [...stored.values()].map(({ versionId, updatedAt }) => ({ versionId, updatedAt, validate: false }));

    const first = await routes(versions());
    expect(first.get("apv_a")!.routes("/v1/orders/1")).toBe("/v1/orders/{id}");
    expect(first.get("apv_b")!.routes("/v1/items")).toBe("/v1/items");
    const again = await routes(versions());
    expect(again.get("apv_a")).toBe(first.get("apv_a"));

    stored.set("apv_b", { versionId: "apv_b", updatedAt: "t2", document: documentWith("/v2/items") });
    const changed = await routes(versions());
    expect(changed.get("apv_a")).toBe(first.get("apv_a"));
    expect(changed.get("apv_b")!.routes("/v1/items")).toBeUndefined();
    expect(changed.get("apv_b")!.routes("/v2/items")).toBe("/v2/items");
    expect(reads).toEqual([["apv_a", "apv_b"], ["apv_b"]]);
  });

  it("gives a version whose stored document is not JSON no table, and a version that lost its document none either", async () => {
    let rows: OpenApiDocumentRow[] = [{ versionId: "apv_c", updatedAt: "t1", document: "openapi: 3.1.0" }];
    const routes = createDocumentRoutes({ openapiDocuments: async () => rows });
    expect((await routes([{ versionId: "apv_c", updatedAt: "t1", validate: false }])).has("apv_c")).toBe(false);
    rows = [{ versionId: "apv_c", updatedAt: "t2", document: documentWith("/x") }];
    expect((await routes([{ versionId: "apv_c", updatedAt: "t2", validate: false }])).has("apv_c")).toBe(true);
    expect((await routes([])).size).toBe(0);
  });
});
