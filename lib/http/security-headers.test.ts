import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce, securityHeaders } from "./security-headers";

describe("security headers", () => {
  it("send HSTS only where the public origin is https", () => {
    expect(securityHeaders({ https: true })["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(securityHeaders({ https: false })["strict-transport-security"]).toBeUndefined();
  });

  it("allow scripts only by nonce in production, and forbid framing", () => {
    const csp = contentSecurityPolicy("abc", { development: false, https: true });
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic';");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy("abc", { development: true, https: false })).toContain("'unsafe-eval'");
  });

  it("let images load from the origins of a logo or favicon given as a URL, and no others", () => {
    expect(contentSecurityPolicy("abc", { development: false, https: true })).toContain("img-src 'self' data: blob:;");
    const csp = contentSecurityPolicy("abc", { development: false, https: true, imageOrigins: ["https://cdn.example.com"] });
    expect(csp).toContain("img-src 'self' data: blob: https://cdn.example.com;");
  });

  it("let scripts connect to the portal and to the gateway's own origin when it has one, and no others", () => {
    expect(contentSecurityPolicy("abc", { development: false, https: true })).toContain("connect-src 'self';");
    const csp = contentSecurityPolicy("abc", { development: false, https: true, connectOrigins: ["https://api.example.com"] });
    expect(csp).toContain("connect-src 'self' https://api.example.com;");
  });

  it("mints a fresh 128-bit nonce each time", () => {
    expect(newNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(newNonce());
  });

  it("let forms post to the portal, and their answers redirect to an agent's origin only where one is given", () => {
    expect(contentSecurityPolicy("abc", { development: false, https: true })).toContain("form-action 'self';");
    const csp = contentSecurityPolicy("abc", { development: false, https: true, formOrigins: ["http://127.0.0.1:8976"] });
    expect(csp).toContain("form-action 'self' http://127.0.0.1:8976;");
  });
});
