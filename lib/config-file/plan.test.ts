import { describe, expect, it } from "vitest";
import type { ApiState } from "./gateway-state";
import { planChanges } from "./plan";

const api: ApiState = {
  slug: "orders",
  name: "Orders",
  summary: "Orders of the shop",
  description: "",
  version: "1.0.0",
  tags: [],
  visibility: "protected",
  plans: [],
  credentialType: null,
  authentication: ["oauth2"],
  scopes: [],
  openapiDocument: null,
  changelog: [{ version: "1.0.0", date: "2026-11-25", notes: "Registered." }],
  environments: {},
  policies: {},
  routes: {},
  mcp: { enabled: false },
};

const ITEMS_DOCUMENT = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Items", version: "1.0.0" },
  paths: { "/v1/items/{id}": { get: { responses: { "200": { description: "An item" } } } } },
});

const context = {
  builtInApis: new Set<string>(),
  credentialsByEnvironment: new Map<string, number>(),
  activeClients: new Set<string>(),
  subscriptionsByPlan: new Map<string, number>(),
  prune: false,
};

describe("planChanges", () => {
  it("finds no change in JSON whose keys the database keeps in another order", () => {
    const stored = { ...api, changelog: [{ date: "2026-11-25", notes: "Registered.", version: "1.0.0" }] };
    expect(
      planChanges({ environments: [], plans: [], apis: [stored], trust: [] }, { environments: [], plans: [], apis: [api], trust: [] }, context).changes,
    ).toEqual([]);
  });

  it("names the fields that changed, and leaves a changelog the file does not give alone", () => {
    const desired = { ...api, version: "1.1.0", changelog: undefined };
    expect(
      planChanges({ environments: [], plans: [], apis: [api], trust: [] }, { environments: [], plans: [], apis: [desired], trust: [] }, context).changes,
    ).toEqual([{ action: "update", kind: "api", slug: "orders", fields: ["version"] }]);
  });

  it("names each version added, removed or changed", () => {
    const version = (name: string, status: "current" | "deprecated" | "beta", sunsetAt: string | null = null) => ({
      version: name,
      status,
      openapiDocument: null,
      deprecatedAt: null,
      sunsetAt,
    });
    const stored = { ...api, versions: [version("v1", "current"), version("v2", "beta")] };
    const desired = { ...api, versions: [{ ...version("v2", "current") }, version("v3", "beta")] };
    expect(
      planChanges({ environments: [], plans: [], apis: [stored], trust: [] }, { environments: [], plans: [], apis: [desired], trust: [] }, context).changes,
    ).toEqual([{ action: "update", kind: "api", slug: "orders", fields: ["versions.v2.status", "versions.v3", "versions.v1"] }]);
    const undated = { ...api, versions: [{ version: "v1", status: "deprecated" as const, openapiDocument: null, sunsetAt: null }] };
    const dated = { ...api, versions: [{ ...version("v1", "deprecated"), deprecatedAt: "2026-11-01" }] };
    expect(
      planChanges({ environments: [], plans: [], apis: [dated], trust: [] }, { environments: [], plans: [], apis: [undated], trust: [] }, context).changes,
    ).toEqual([]);
  });

  it("names policies and routes when they change, removed ones included", () => {
    const stored = { ...api, openapiDocument: ITEMS_DOCUMENT, policies: { requestValidation: { mode: "enforce" as const } } };
    const desired = { ...stored, policies: {}, routes: { "GET /v1/items/{id}": { responseCache: { ttlSeconds: 300, shared: false } } } };
    expect(
      planChanges({ environments: [], plans: [], apis: [stored], trust: [] }, { environments: [], plans: [], apis: [desired], trust: [] }, context).changes,
    ).toEqual([{ action: "update", kind: "api", slug: "orders", fields: ["policies", "routes"] }]);
  });

  it("refuses a route key that names no operation of the API's documents, at the key", () => {
    const routes = { "GET /v1/items/{id}": {}, "HEAD /v1/items/{id}": {}, "POST /v1/items": {}, "GET /v1/items/{itemId}": {} };
    const desired = { ...api, openapiDocument: ITEMS_DOCUMENT, routes };
    const { problems } = planChanges(
      { environments: [], plans: [], apis: [], trust: [] },
      { environments: [], plans: [], apis: [desired], trust: [] },
      context,
    );
    expect(problems).toEqual([
      { path: ["apis", 0, "routes", "POST /v1/items"], message: '"POST /v1/items" names no operation: no document of v1 declares it' },
      { path: ["apis", 0, "routes", "GET /v1/items/{itemId}"], message: '"GET /v1/items/{itemId}" names no operation: no document of v1 declares it' },
    ]);
    const undocumented = { ...api, routes: { "GET /v1/items/{id}": {} } };
    expect(
      planChanges({ environments: [], plans: [], apis: [], trust: [] }, { environments: [], plans: [], apis: [undocumented], trust: [] }, context).problems,
    ).toEqual([
      { path: ["apis", 0, "routes", "GET /v1/items/{id}"], message: '"GET /v1/items/{id}" names no operation: the API has no OpenAPI document to name it' },
    ]);
  });

  it("finds a route in any version the API keeps, and in the versions the file lists", () => {
    const v2Document = ITEMS_DOCUMENT.replaceAll("/v1/", "/v2/");
    const version = (name: string, status: "current" | "deprecated", openapiDocument: string | null) => ({
      version: name,
      status,
      openapiDocument,
      sunsetAt: null,
    });
    const stored = { ...api, versions: [version("v1", "deprecated", ITEMS_DOCUMENT), version("v2", "current", null)] };
    const routes = { "GET /v1/items/{id}": {}, "GET /v2/items/{id}": {} };
    const kept = { ...api, openapiDocument: v2Document, routes };
    expect(
      planChanges({ environments: [], plans: [], apis: [stored], trust: [] }, { environments: [], plans: [], apis: [kept], trust: [] }, context).problems,
    ).toEqual([]);
    const listed = { ...api, openapiDocument: undefined, versions: [version("v2", "current", v2Document)], routes };
    expect(
      planChanges({ environments: [], plans: [], apis: [stored], trust: [] }, { environments: [], plans: [], apis: [listed], trust: [] }, context).problems,
    ).toEqual([{ path: ["apis", 0, "routes", "GET /v1/items/{id}"], message: '"GET /v1/items/{id}" names no operation: no document of v2 declares it' }]);
  });
});
