import { describe, expect, it } from "vitest";
import { ProblemError } from "../../../http/problem";
import { type GatewayVersion, type GatewayVersions, operationKey, selectVersion } from "../../versions";
import { addDeprecationHeaders, deprecationHeaders, deprecationOf, hasLifecycle, lifecycleDecision, retiredRefusal } from "./stage";

const version = (name: string, fields: Partial<GatewayVersion> = {}): GatewayVersion => ({
  id: name,
  version: name,
  status: "current",
  deprecation: undefined,
  routes: undefined,
  operations: new Map(),
  ...fields,
});

const v1 = version("v1", { status: "deprecated", deprecation: { deprecatedAt: Date.UTC(2026, 10, 1), sunsetAt: Date.UTC(2027, 5, 30) } });
const v2 = version("v2", { operations: new Map([["GET /v2/legacy", { deprecatedAt: Date.UTC(2026, 10, 15), sunsetAt: null }]]) });
const versions: GatewayVersions = { bySegment: new Map([v1, v2].map((entry) => [entry.version, entry])), current: v2 };

describe("the gateway's view of an API's versions", () => {
  it("selects the version the first path segment names, else the current one", () => {
    expect(selectVersion(versions, "/v1/orders/7")).toBe(v1);
    expect(selectVersion(versions, "/v1")).toBe(v1);
    expect(selectVersion(versions, "/v2/orders")).toBe(v2);
    expect(selectVersion(versions, "/orders/7")).toBe(v2);
    expect(selectVersion({ bySegment: new Map(), current: undefined }, "/v1/x")).toBeUndefined();
  });

  it("refuses another spelling of a version's segment, and sends a segment that names no version to the current one", () => {
    for (const remainder of ["/V1/orders", "/v1;x=1/orders", "/V2;a", "/v2;"]) {
      expect(() => selectVersion(versions, remainder)).toThrow(expect.objectContaining({ code: "malformed-path", status: 400 }));
    }
    expect(selectVersion(versions, "/V9/orders")).toBe(v2);
    expect(selectVersion(versions, "/orders;x=1")).toBe(v2);
  });

  it("leaves calls alone only to a version that is not retired and deprecates nothing", () => {
    expect([v1, v2, version("v3", { status: "retired" })].map(hasLifecycle)).toEqual([true, true, true]);
    expect(hasLifecycle(version("v4"))).toBe(false);
  });

  it("writes Deprecation as @epoch-seconds, Sunset as an HTTP-date, and both Links to the version's page", () => {
    const page = "https://portal.example/apis/orders?version=v1";
    expect(deprecationHeaders(deprecationOf(v1, operationKey("GET", "/v1/orders"))!, page)).toEqual({
      deprecation: "@1793491200",
      sunset: "Wed, 30 Jun 2027 00:00:00 GMT",
      link: `<${page}>; rel="deprecation", <${page}>; rel="sunset"`,
    });
    expect(deprecationHeaders(deprecationOf(v2, operationKey("HEAD", "/v2/legacy"))!, page)).toEqual({
      deprecation: "@1794700800",
      link: `<${page}>; rel="deprecation"`,
    });
    expect(deprecationOf(v2, operationKey("GET", "/v2/orders"))).toBeUndefined();
    expect(deprecationOf(v2, undefined)).toBeUndefined();
  });

  it("keeps the upstream's Link values beside its own", () => {
    const headers: Record<string, string | string[]> = { link: '<https://u.example/2>; rel="next"' };
    addDeprecationHeaders(headers, { deprecation: "@1", link: '<p>; rel="deprecation"' });
    expect(headers).toEqual({ deprecation: "@1", link: ['<https://u.example/2>; rel="next"', '<p>; rel="deprecation"'] });
  });

  it("refuses with api-version-retired past the sunset or once retired, naming the current version", () => {
    const base = { apiSlug: "orders", versions, publicUrl: "https://portal.example" };
    expect(retiredRefusal({ ...base, version: v1, now: Date.UTC(2027, 5, 29) })).toBeUndefined();
    const refusal = retiredRefusal({ ...base, version: v1, now: Date.UTC(2027, 5, 30) });
    expect(refusal).toBeInstanceOf(ProblemError);
    expect(refusal).toMatchObject({
      code: "api-version-retired",
      status: 410,
      extensions: { successor: "v2", successorUrl: "https://portal.example/apis/orders?version=v2" },
    });
    const retiredCurrent = version("v2", { status: "retired" });
    expect(retiredRefusal({ ...base, versions: { bySegment: new Map(), current: retiredCurrent }, version: retiredCurrent, now: 0 })?.message).toContain(
      'Version v2 of "orders" is retired.',
    );
    const sunsetOperation = version("v2", { operations: new Map([["GET /v2/old", { deprecatedAt: 0, sunsetAt: 1_000 }]]) });
    expect(retiredRefusal({ ...base, version: sunsetOperation, operation: "GET /v2/old", now: 1_000 })?.message).toContain(
      'GET /v2/old of "orders" v2 is retired.',
    );
    expect(retiredRefusal({ ...base, version: sunsetOperation, operation: "GET /v2/new", now: 1_000 })).toBeUndefined();
  });
});

describe("the lifecycle of one call", () => {
  const api = { slug: "orders", versions };
  const publicUrl = "https://portal.example";
  const page = (name: string) => `${publicUrl}/apis/orders?version=${name}`;

  it("leaves a call to a current version with nothing deprecated alone, routed or not", () => {
    const current = version("v3");
    expect(lifecycleDecision({ api, version: current, method: "GET", route: "/v3/orders", publicUrl, now: 0 })).toEqual({
      deprecation: undefined,
      refusal: undefined,
    });
    expect(lifecycleDecision({ api, version: undefined, method: "GET", route: undefined, publicUrl, now: 0 })).toEqual({
      deprecation: undefined,
      refusal: undefined,
    });
  });

  it("announces the version's deprecation before the route is known, and the operation's once it is", () => {
    expect(lifecycleDecision({ api, version: v1, method: "GET", route: undefined, publicUrl, now: 0 })).toEqual({
      deprecation: {
        deprecation: "@1793491200",
        sunset: "Wed, 30 Jun 2027 00:00:00 GMT",
        link: `<${page("v1")}>; rel="deprecation", <${page("v1")}>; rel="sunset"`,
      },
      refusal: undefined,
    });
    expect(lifecycleDecision({ api, version: v2, method: "GET", route: undefined, publicUrl, now: 0 }).deprecation).toBeUndefined();
    expect(lifecycleDecision({ api, version: v2, method: "HEAD", route: "/v2/legacy", publicUrl, now: 0 })).toEqual({
      deprecation: { deprecation: "@1794700800", link: `<${page("v2")}>; rel="deprecation"` },
      refusal: undefined,
    });
  });

  it("refuses an operation past its sunset, and keeps its deprecation on the refusal", () => {
    const sunsetOperation = version("v2", { operations: new Map([["DELETE /v2/orders/{id}", { deprecatedAt: 0, sunsetAt: 1_000 }]]) });
    const decision = lifecycleDecision({ api, version: sunsetOperation, method: "DELETE", route: "/v2/orders/{id}", publicUrl, now: 1_000 });
    expect(decision.refusal).toMatchObject({ code: "api-version-retired", status: 410 });
    expect(decision.deprecation).toEqual({
      deprecation: "@0",
      sunset: "Thu, 01 Jan 1970 00:00:01 GMT",
      link: `<${page("v2")}>; rel="deprecation", <${page("v2")}>; rel="sunset"`,
    });
    expect(lifecycleDecision({ api, version: sunsetOperation, method: "DELETE", route: undefined, publicUrl, now: 1_000 }).refusal).toBeUndefined();
  });
});
