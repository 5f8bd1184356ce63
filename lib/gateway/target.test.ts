import { describe, expect, it } from "vitest";
import { parseTarget } from "./target";

describe("parseTarget", () => {
  it("splits environment, API and the rest", () => {
    expect(parseTarget("/gw/sso-qa/notifications/v1/notifications/1")).toEqual({
      envSlug: "sso-qa",
      apiSlug: "notifications",
      remainder: "/v1/notifications/1",
    });
    expect(parseTarget("/gw/sso-qa/oauth2/token")).toEqual({ envSlug: "sso-qa", apiSlug: "oauth2", remainder: "/token" });
    expect(parseTarget("/gw/sso-qa")).toEqual({ envSlug: "sso-qa", apiSlug: "", remainder: "" });
  });

  it("reads RFC 8414's path-form metadata location", () => {
    expect(parseTarget("/.well-known/oauth-authorization-server/gw/platform-dev")).toEqual({
      envSlug: "platform-dev",
      apiSlug: ".well-known",
      remainder: "/oauth-authorization-server",
    });
  });

  it("refuses other paths and broken percent-encoding", () => {
    expect(parseTarget("/api/health")).toBeUndefined();
    expect(parseTarget("/gw/%E0%A4%A/x")).toBeUndefined();
  });
});
