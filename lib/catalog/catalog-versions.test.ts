import { describe, expect, it } from "vitest";
import { type CatalogVersion, hasDeprecatedOperations, isDeprecatedApi, markDeprecatedOperations, withoutDeprecatedOperations } from "./catalog-versions";

const version = (fields: Partial<CatalogVersion>): CatalogVersion => ({
  version: "v1",
  status: "current",
  releasedAt: null,
  deprecatedAt: null,
  sunsetAt: null,
  deprecatedOperations: [],
  changelog: [],
  ...fields,
});

describe("versions in the catalog", () => {
  it("marks the operations a version deprecates, leaving the others and the document's own marks alone", () => {
    const document = {
      openapi: "3.1.0",
      paths: { "/v1/orders": { get: { summary: "List" }, post: { summary: "Create", deprecated: true } }, "/v1/orders/{id}": { get: { summary: "One" } } },
    };
    const marked = markDeprecatedOperations(
      document,
      version({
        deprecatedOperations: [
          { method: "GET", path: "/v1/orders/{id}", deprecatedAt: new Date(), sunsetAt: null },
          { method: "DELETE", path: "/v1/gone", deprecatedAt: new Date(), sunsetAt: null },
        ],
      }),
    );
    expect(marked.paths).toEqual({
      "/v1/orders": { get: { summary: "List" }, post: { summary: "Create", deprecated: true } },
      "/v1/orders/{id}": { get: { summary: "One", deprecated: true } },
    });
    expect(document.paths["/v1/orders/{id}"].get).toEqual({ summary: "One" });
  });

  it("leaves deprecated operations out on request, and the paths that had nothing else, keeping path-level fields", () => {
    const document = {
      openapi: "3.1.0",
      paths: {
        "/v1/orders": { parameters: [{ name: "tenant", in: "header" }], get: { summary: "List" }, post: { summary: "Create", deprecated: true } },
        "/v1/orders/{id}": { get: { summary: "One", deprecated: true } },
      },
    };
    expect(hasDeprecatedOperations(document)).toBe(true);
    const kept = withoutDeprecatedOperations(document);
    expect(kept.paths).toEqual({ "/v1/orders": { parameters: [{ name: "tenant", in: "header" }], get: { summary: "List" } } });
    expect(hasDeprecatedOperations(kept)).toBe(false);
  });

  it("counts an API as deprecated when every version is deprecated or retired", () => {
    expect(isDeprecatedApi([version({ status: "deprecated" }), version({ status: "retired" })])).toBe(true);
    expect(isDeprecatedApi([version({ status: "deprecated" }), version({ status: "beta" })])).toBe(false);
    expect(isDeprecatedApi([])).toBe(false);
  });
});
