import { describe, expect, it } from "vitest";
import { createPathTemplates } from "./path-templates";

describe("path templates", () => {
  const match = createPathTemplates([
    "/v1/orders",
    "/v1/orders/{id}",
    "/v1/orders/{orderId}/lines/{line}",
    "/v1/orders/mine",
    "/v1/reports/{id}.json",
    "/v1/reports/{id}",
    "/",
  ]);

  it("finds the template a path matches, a parameter standing for one segment", () => {
    expect(match("/v1/orders")).toBe("/v1/orders");
    expect(match("/v1/orders/42")).toBe("/v1/orders/{id}");
    expect(match("/v1/orders/a%2Fb/lines/3")).toBe("/v1/orders/{orderId}/lines/{line}");
    expect(match("/")).toBe("/");
    expect(match("")).toBe("/");
  });

  it("prefers a fixed segment, then one with fixed text around its parameter, then a bare parameter", () => {
    expect(match("/v1/orders/mine")).toBe("/v1/orders/mine");
    expect(match("/v1/reports/7.json")).toBe("/v1/reports/{id}.json");
    expect(match("/v1/reports/7")).toBe("/v1/reports/{id}");
  });

  it("goes back when a fixed segment leads nowhere", () => {
    const backtracking = createPathTemplates(["/a/b/c", "/a/{x}/d"]);
    expect(backtracking("/a/b/d")).toBe("/a/{x}/d");
    expect(backtracking("/a/b/c")).toBe("/a/b/c");
  });

  it("matches nothing else: other paths, empty segments, a trailing slash the template has not", () => {
    for (const path of ["/v1", "/v1/orders/", "/v1/orders//lines/3", "/v1/orders/42/lines", "/v2/orders", "/v1/orders/42/lines/3/x"]) {
      expect(match(path), path).toBeUndefined();
    }
  });

  it("keeps the first of templates that differ only in their parameters' names", () => {
    expect(createPathTemplates(["/things/{id}", "/things/{name}"])("/things/1")).toBe("/things/{id}");
  });
});
