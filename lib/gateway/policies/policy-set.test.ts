import { describe, expect, it } from "vitest";
import { apiPoliciesSchema, policiesFor } from "./policy-set";

const policies = apiPoliciesSchema.parse({
  policies: { requestValidation: { mode: "enforce" }, responseCache: { ttlSeconds: 30 } },
  routes: {
    "GET /v1/items/{id}": { responseCache: { ttlSeconds: 300 } },
    "POST /v1/items": { requestValidation: { mode: "report" } },
  },
});

describe("policiesFor", () => {
  it("gives a route its own policy in place of the API's, and the API's others", () => {
    expect(policiesFor(policies, "GET", "/v1/items/{id}")).toEqual({
      requestValidation: { mode: "enforce" },
      responseCache: { ttlSeconds: 300, shared: false },
    });
    expect(policiesFor(policies, "POST", "/v1/items").requestValidation).toEqual({ mode: "report" });
  });

  it("gives a route without its own the API's policies", () => {
    expect(policiesFor(policies, "DELETE", "/v1/items/{id}")).toEqual(policies.policies);
    expect(policiesFor(policies, "GET", undefined)).toEqual(policies.policies);
  });

  it("gives HEAD the GET operation's policies when no HEAD route is named", () => {
    expect(policiesFor(policies, "HEAD", "/v1/items/{id}").responseCache).toEqual({ ttlSeconds: 300, shared: false });
  });

  it("refuses a route key that is not METHOD /path and a policy it does not know", () => {
    expect(apiPoliciesSchema.safeParse({ routes: { "/v1/items": {} } }).success).toBe(false);
    expect(apiPoliciesSchema.safeParse({ routes: { "FETCH /v1/items": {} } }).success).toBe(false);
    expect(apiPoliciesSchema.safeParse({ policies: { compression: {} } }).success).toBe(false);
    expect(apiPoliciesSchema.safeParse({ policies: { requestValidation: { mode: "strict" } } }).success).toBe(false);
  });
});
