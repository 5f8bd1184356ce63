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
  credentialType: null,
  scopes: [],
  openapiDocument: null,
  changelog: [{ version: "1.0.0", date: "2026-11-25", notes: "Registered." }],
  environments: {},
};

const context = { builtInApis: new Set<string>(), credentialsByEnvironment: new Map<string, number>(), activeClients: new Set<string>(), prune: false };

describe("planChanges", () => {
  it("finds no change in JSON whose keys the database keeps in another order", () => {
    const stored = { ...api, changelog: [{ date: "2026-11-25", notes: "Registered.", version: "1.0.0" }] };
    expect(planChanges({ environments: [], apis: [stored], trust: [] }, { environments: [], apis: [api], trust: [] }, context).changes).toEqual([]);
  });

  it("names the fields that changed, and leaves a changelog the file does not give alone", () => {
    const desired = { ...api, version: "1.1.0", changelog: undefined };
    expect(planChanges({ environments: [], apis: [api], trust: [] }, { environments: [], apis: [desired], trust: [] }, context).changes).toEqual([
      { action: "update", kind: "api", slug: "orders", fields: ["version"] },
    ]);
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
    expect(planChanges({ environments: [], apis: [stored], trust: [] }, { environments: [], apis: [desired], trust: [] }, context).changes).toEqual([
      { action: "update", kind: "api", slug: "orders", fields: ["versions.v2.status", "versions.v3", "versions.v1"] },
    ]);
    const undated = { ...api, versions: [{ version: "v1", status: "deprecated" as const, openapiDocument: null, sunsetAt: null }] };
    const dated = { ...api, versions: [{ ...version("v1", "deprecated"), deprecatedAt: "2026-11-01" }] };
    expect(planChanges({ environments: [], apis: [dated], trust: [] }, { environments: [], apis: [undated], trust: [] }, context).changes).toEqual([]);
  });
});
