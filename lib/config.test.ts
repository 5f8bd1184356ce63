import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_AUTH_SECRET, parseConfig } from "./config";

describe("configuration", () => {
  it("runs with nothing set", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: "http://localhost:3000",
      databaseUrl: "file:./data/gatehouse.db",
      databaseProvider: "sqlite",
      authSecret: DEVELOPMENT_AUTH_SECRET,
      seedDemo: true,
    });
  });

  it("seeds demo data outside production, and in production only with SEED_DEMO=1", () => {
    const production = { APP_ENV: "production", AUTH_SECRET: "x".repeat(32) };
    expect(parseConfig({ APP_ENV: "test" }).seedDemo).toBe(true);
    expect(parseConfig({ SEED_DEMO: "0" }).seedDemo).toBe(false);
    expect(parseConfig(production).seedDemo).toBe(false);
    expect(parseConfig({ ...production, SEED_DEMO: "" }).seedDemo).toBe(false);
    expect(parseConfig({ ...production, SEED_DEMO: "1" }).seedDemo).toBe(true);
    expect(() => parseConfig({ SEED_DEMO: "yes" })).toThrow(/SEED_DEMO:/);
  });

  it("derives PUBLIC_URL from PORT and drops a trailing slash", () => {
    expect(parseConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(parseConfig({ PUBLIC_URL: "https://portal.example.com/" }).publicUrl).toBe("https://portal.example.com");
  });

  it("recognises PostgreSQL URLs", () => {
    expect(parseConfig({ DATABASE_URL: "postgresql://root@127.0.0.1:5432/gatehouse" }).databaseProvider).toBe("postgresql");
  });

  it("opens 20 gateway connections to PostgreSQL unless DATABASE_POOL_SIZE says otherwise, and refuses a size that is no count", () => {
    expect(parseConfig({}).databasePoolSize).toBe(20);
    expect(parseConfig({ DATABASE_POOL_SIZE: "8" }).databasePoolSize).toBe(8);
    expect(() => parseConfig({ DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE:/);
    expect(() => parseConfig({ DATABASE_POOL_SIZE: "many" })).toThrow(/DATABASE_POOL_SIZE:/);
  });

  it("refuses production without a real AUTH_SECRET, naming the variable", () => {
    expect(() => parseConfig({ APP_ENV: "production" })).toThrow(/AUTH_SECRET: is required in production/);
    expect(() => parseConfig({ APP_ENV: "production", AUTH_SECRET: DEVELOPMENT_AUTH_SECRET })).toThrow(/AUTH_SECRET/);
    expect(parseConfig({ APP_ENV: "production", AUTH_SECRET: "x".repeat(32) }).authSecret).toBe("x".repeat(32));
  });

  it("trusts no proxy unless TRUSTED_PROXIES names it, and refuses entries that are not addresses", () => {
    expect(parseConfig({}).trustedProxies("127.0.0.1")).toBe(false);
    const trusted = parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, ::1" }).trustedProxies;
    expect([trusted("10.2.3.4"), trusted("::1"), trusted("11.0.0.1")]).toEqual([true, true, false]);
    expect(() => parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, proxy.internal" })).toThrow(/TRUSTED_PROXIES: "proxy.internal" is not an IP/);
  });

  it("traces only with OTEL_EXPORTER_OTLP_ENDPOINT, as gatehouse unless OTEL_SERVICE_NAME says otherwise", () => {
    expect(parseConfig({}).tracing).toBeUndefined();
    expect(parseConfig({ OTEL_SERVICE_NAME: "edge" }).tracing).toBeUndefined();
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).tracing).toEqual({
      endpoint: "http://collector:4318",
      serviceName: "gatehouse",
    });
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example.com", OTEL_SERVICE_NAME: "edge" }).tracing?.serviceName).toBe("edge");
    expect(() => parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT:/);
  });

  it("names every bad variable", () => {
    expect(() => parseConfig({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(/PORT:[\s\S]*DATABASE_URL: must start with file: or postgres/);
    expect(() => parseConfig({ OIDC_ISSUER: "https://sso.example.com" })).toThrow(
      /OIDC_ISSUER: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together/,
    );
  });

  it("holds the seed passwords to the portal's 12-character rule", () => {
    expect(() => parseConfig({ SEED_ADMIN_PASSWORD: "eleven-char" })).toThrow(/SEED_ADMIN_PASSWORD: must be at least 12 characters/);
    expect(parseConfig({ SEED_DEVELOPER_PASSWORD: "twelve-chars" }).seedDeveloperPassword).toBe("twelve-chars");
  });

  it("says everything that is wrong in one line", () => {
    expect(() => parseConfig({ AUTH_SECRET: "short", PORT: "0" })).toThrow(/^Invalid configuration \(process environment or \.env\): [^\n]*AUTH_SECRET[^\n]*$/);
  });

  it("brands the portal as Gatehouse, with its own mark and blue accent, unless PORTAL_* say otherwise", () => {
    expect(parseConfig({}).brand).toEqual({ name: "Gatehouse", logo: undefined, favicon: undefined, accent: "#1d4ed8" });
    const logo = join(mkdtempSync(join(tmpdir(), "brand-")), "logo.svg");
    writeFileSync(logo, "<svg xmlns='http://www.w3.org/2000/svg'/>");
    const brand = parseConfig({
      PORTAL_NAME: " Acme APIs ",
      PORTAL_LOGO: logo,
      PORTAL_FAVICON: "https://cdn.example.com/icon.png",
      PORTAL_ACCENT: "#0F766E",
    }).brand;
    expect(brand).toEqual({
      name: "Acme APIs",
      logo: { kind: "file", path: logo, contentType: "image/svg+xml" },
      favicon: { kind: "url", url: "https://cdn.example.com/icon.png" },
      accent: "#0F766E",
    });
  });

  it("refuses an accent that is no hex colour, and a logo or favicon that is neither an http(s) URL nor a readable image", () => {
    expect(() => parseConfig({ PORTAL_ACCENT: "teal" })).toThrow(/PORTAL_ACCENT: must be a CSS hex colour/);
    expect(() => parseConfig({ PORTAL_ACCENT: "#12345" })).toThrow(/PORTAL_ACCENT:/);
    expect(() => parseConfig({ PORTAL_LOGO: "ftp://example.com/logo.png" })).toThrow(/PORTAL_LOGO: must be an http\(s\) URL/);
    expect(() => parseConfig({ PORTAL_LOGO: "/no/such/logo.png" })).toThrow(/PORTAL_LOGO: cannot read the file \/no\/such\/logo.png/);
    expect(() => parseConfig({ PORTAL_FAVICON: "package.json" })).toThrow(/PORTAL_FAVICON: must be an http\(s\) URL or an image file/);
    expect(() => parseConfig({ PORTAL_NAME: "x".repeat(61) })).toThrow(/PORTAL_NAME: must be at most 60 characters/);
  });
});
