import { describe, expect, it } from "vitest";
import { catalogFilterSchema, filterCatalog, matchingGuides, matchingOperations } from "./catalog-filter";

const NOTIFICATIONS = {
  name: "Notifications API",
  summary: "Inbox",
  description: "Notices per environment.",
  tags: ["messaging"],
  operations: [
    { method: "GET", path: "/v1/notifications", summary: "List notifications" },
    { method: "GET", path: "/v1/notifications/{id}", summary: "Fetch one notification" },
  ],
  guides: [
    { title: "Errors", markdown: "## 412 Precondition failed\n\nSend the ETag you read in If-Match." },
    { title: "Authentication", markdown: "Send a bearer token." },
  ],
  environments: [
    { slug: "sso-qa", credentialType: "GLOBAL_SSO" as const },
    { slug: "platform-dev", credentialType: "PLATFORM" as const },
  ],
};
const TOKEN = {
  name: "Global SSO Access Token",
  summary: "Tokens",
  description: "OAuth 2.0.",
  tags: ["oauth2"],
  environments: [{ slug: "sso-qa", credentialType: "GLOBAL_SSO" as const }],
};
const APIS = [NOTIFICATIONS, TOKEN];

const filter = (query: Record<string, unknown>) => filterCatalog(APIS, catalogFilterSchema.parse(query)).map((api) => api.name);

describe("catalog filter", () => {
  it("lists an API served in no environment unless an environment or credential type is chosen", () => {
    const management = { name: "Management", summary: "Automation", description: "", tags: [], environments: [] };
    const names = (query: Record<string, unknown>) => filterCatalog([...APIS, management], catalogFilterSchema.parse(query)).map((api) => api.name);
    expect(names({})).toContain("Management");
    expect(names({ q: "automation" })).toEqual(["Management"]);
    expect(names({ env: "sso-qa" })).not.toContain("Management");
    expect(names({ type: "platform" })).not.toContain("Management");
  });

  it("matches every search term, case-insensitively, in name, summary, description or tags", () => {
    expect(filter({ q: "MESSAGING" })).toEqual(["Notifications API"]);
    expect(filter({ q: "oauth sso" })).toEqual(["Global SSO Access Token"]);
    expect(filter({ q: "oauth notices" })).toEqual([]);
    expect(filter({})).toEqual(["Notifications API", "Global SSO Access Token"]);
  });

  it("also matches operations by method, path and summary, and names the operations that match on their own", () => {
    expect(filter({ q: "/v1/notifications/{id}" })).toEqual(["Notifications API"]);
    expect(filter({ q: "fetch ONE notification" })).toEqual(["Notifications API"]);
    expect(filter({ q: "delete /v1/notifications" })).toEqual([]);
    expect(matchingOperations(NOTIFICATIONS.operations, "get {id}").map((operation) => operation.summary)).toEqual(["Fetch one notification"]);
    expect(matchingOperations(NOTIFICATIONS.operations, "messaging")).toEqual([]);
    expect(matchingOperations(NOTIFICATIONS.operations, " ")).toEqual([]);
  });

  it("also matches guides that hold every term on their own, title or text, and names them", () => {
    expect(filter({ q: "etag if-match" })).toEqual(["Notifications API"]);
    expect(filter({ q: "errors bearer" })).toEqual([]);
    expect(matchingGuides(NOTIFICATIONS.guides, "PRECONDITION errors").map((guide) => guide.title)).toEqual(["Errors"]);
    expect(matchingGuides(NOTIFICATIONS.guides, "")).toEqual([]);
  });

  it("needs one environment that satisfies the environment and the credential type at once", () => {
    expect(filter({ type: "platform" })).toEqual(["Notifications API"]);
    expect(filter({ env: "sso-qa", type: "platform" })).toEqual([]);
    expect(filter({ env: "platform-dev" })).toEqual(["Notifications API"]);
  });

  it("drops values that make no sense instead of failing, and takes the first of repeated ones", () => {
    expect(catalogFilterSchema.parse({ q: ["token", "other"], env: "<script>", type: "gold" })).toEqual({ q: "token" });
    expect(catalogFilterSchema.parse({ q: "x".repeat(500) })).toEqual({ q: "" });
  });

  it("hides an API whose every version is deprecated or retired, unless ?deprecated=show", () => {
    const version = (status: "current" | "deprecated" | "retired") => ({
      version: "v1",
      status,
      releasedAt: null,
      deprecatedAt: null,
      sunsetAt: null,
      deprecatedOperations: [],
    });
    const LEGACY = { ...TOKEN, name: "Legacy API", versions: [version("deprecated"), version("retired")] };
    const LIVE = { ...TOKEN, name: "Live API", versions: [version("deprecated"), version("current")] };
    const names = (query: Record<string, unknown>) => filterCatalog([LEGACY, LIVE], catalogFilterSchema.parse(query)).map((api) => api.name);
    expect(names({})).toEqual(["Live API"]);
    expect(names({ deprecated: "show" })).toEqual(["Legacy API", "Live API"]);
    expect(names({ deprecated: "yes" })).toEqual(["Live API"]);
  });
});
