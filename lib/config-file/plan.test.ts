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
});
