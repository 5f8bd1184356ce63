import { describe, expect, it } from "vitest";
import { consentRedirectOrigin, isAcceptableRedirectUri, isRegisteredRedirectUri } from "./agent-redirect-uris";

describe("agents' redirect URIs", () => {
  it("are http on a loopback host, any port, or https, without fragment or user info", () => {
    for (const uri of ["http://127.0.0.1/cb", "http://localhost:3000/cb", "http://[::1]:8080/cb", "https://agent.example/cb?x=1"]) {
      expect(isAcceptableRedirectUri(uri), uri).toBe(true);
    }
    for (const uri of [
      "http://agent.example/cb",
      "http://127.0.0.2/cb",
      "javascript:alert(1)",
      "https://agent.example/cb#x",
      "https://user:pw@agent.example/cb",
      "custom.scheme:/cb",
      "not a url",
      `https://agent.example/${"x".repeat(2000)}`,
    ]) {
      expect(isAcceptableRedirectUri(uri), uri).toBe(false);
    }
  });

  it("match a registered one exactly, but for a loopback one's port", () => {
    const registered = ["http://127.0.0.1:8976/callback", "https://agent.example/cb"];
    expect(isRegisteredRedirectUri("http://127.0.0.1:8976/callback", registered)).toBe(true);
    expect(isRegisteredRedirectUri("http://127.0.0.1:1234/callback", registered)).toBe(true);
    expect(isRegisteredRedirectUri("http://127.0.0.1:1234/other", registered)).toBe(false);
    expect(isRegisteredRedirectUri("http://localhost:8976/callback", registered)).toBe(false);
    expect(isRegisteredRedirectUri("https://agent.example:444/cb", registered)).toBe(false);
    expect(isRegisteredRedirectUri("https://agent.example/cb2", registered)).toBe(false);
  });

  it("give the consent page's form-action the asked redirect URI's origin, on that page only", () => {
    const search = new URLSearchParams({ redirect_uri: "http://127.0.0.1:8976/callback" });
    expect(consentRedirectOrigin("/oauth/sso-qa/authorize", search)).toBe("http://127.0.0.1:8976");
    expect(consentRedirectOrigin("/settings", search)).toBeUndefined();
    expect(consentRedirectOrigin("/oauth/sso-qa/authorize", new URLSearchParams({ redirect_uri: "http://evil.example/cb" }))).toBeUndefined();
    expect(consentRedirectOrigin("/oauth/sso-qa/authorize", new URLSearchParams())).toBeUndefined();
  });
});
