import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

async function page(path: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, html: await response.text() };
}

/** The names of the API cards, in order. */
function cardNames(html: string): string[] {
  return [...html.matchAll(/<h2 id="api-[^"]+"[^>]*><a [^>]*>([^<]+)<\/a>/g)].map((match) => match[1]!);
}

describe("catalog /apis", () => {
  it("lists every API with its badge, version, credential types and environments, server-rendered", async () => {
    const { status, html } = await page("/apis");
    expect(status).toBe(200);
    expect(cardNames(html)).toEqual(["Gatehouse Management API", "Global SSO Access Token", "Notifications API", "Platform Access Token"]);
    expect(html).toContain("Personal access token");
    expect(html).toMatch(/<input[^>]*type="search"[^>]*name="q"/);
    expect(html).toContain("Protected");
    expect(html).toContain("Public");
    expect(html).toContain("Global SSO QA, Global SSO Production, Platform Development, Platform Production");
  });

  it("lists the management API with a page of its own: a personal access token, no client credentials, and a Reference of /api/v1", async () => {
    const overview = await page("/apis/management");
    expect(overview.status).toBe(200);
    expect(overview.html).toContain("Settings → Access tokens");
    expect(overview.html).toContain(`${server.url}/api/v1`);
    expect(overview.html).not.toContain("Client Credentials");
    expect(overview.html).toContain("credentials:write");
    const reference = await page("/apis/management?tab=reference");
    expect(reference.status).toBe(200);
    expect(reference.html).toContain('href="/api/v1/openapi.json"');
  });

  it.each([
    ["q=notif", ["Notifications API"]],
    ["q=MESSAGING", ["Notifications API"]],
    // The Notifications API's guides name every environment's token endpoint, …/gw/platform-dev/oauth2/token among them.
    ["q=oauth2+platform", ["Notifications API", "Platform Access Token"]],
    ["q=inbox+environment", ["Notifications API"]],
    ["env=sso-prod", ["Global SSO Access Token", "Notifications API"]],
    ["type=platform", ["Notifications API", "Platform Access Token"]],
    ["env=sso-qa&type=platform", []],
    ["env=platform-prod&type=platform", ["Notifications API", "Platform Access Token"]],
    ["type=bogus&env=%3Cscript%3E", ["Gatehouse Management API", "Global SSO Access Token", "Notifications API", "Platform Access Token"]],
    ["q=rotate", ["Gatehouse Management API"]],
  ])("filters by %s", async (query, expected) => {
    const { status, html } = await page(`/apis?${query}`);
    expect(status).toBe(200);
    expect(cardNames(html)).toEqual(expected);
    if (expected.length === 0) expect(html).toContain("No API matches these filters.");
  });

  it("keeps the filters in the form so the URL round-trips", async () => {
    const { html } = await page("/apis?q=token&env=platform-dev&type=platform");
    expect(html).toMatch(/name="q"[^>]*value="token"|value="token"[^>]*name="q"/);
    expect(html).toMatch(/<option value="platform-dev" selected="">/);
    expect(html).toMatch(/<option value="platform" selected="">/);
  });

  it("ships no Swagger UI JavaScript", async () => {
    const { html } = await page("/apis");
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const source = await (await fetch(new URL(src, server.url))).text();
      expect(source, src).not.toMatch(/swagger-ui|SwaggerUI/);
    }
  });
});

describe("API page /apis/{api}", () => {
  it("shows the overview with environments, credential types and the dated changelog", async () => {
    const { status, html } = await page("/apis/notifications");
    expect(status).toBe(200);
    for (const tab of ["Overview", "Reference", "Client Credentials"]) expect(html).toContain(`>${tab}</a>`);
    expect(html).toContain("1.0.0");
    expect(html).toContain("5 December 2022");
    expect(html).toContain("GET /v1/notifications, GET /v1/notifications/{id}, PUT /v1/notifications/{id}");
    expect(html).toContain("Platform Production");
    expect(html).toMatch(/<a aria-current="page"[^>]*href="\/apis\/notifications\?env=sso-qa">Overview<\/a>/);
  });

  it("moves the token endpoint and the code samples with the environment on the Client Credentials tab", async () => {
    const { status, html } = await page("/apis/notifications?tab=credentials&env=platform-dev");
    expect(status).toBe(200);
    expect(html).toContain("Your Platform credentials for Platform Development");
    expect(html).toContain(`curl -sS -X POST &#x27;${server.url}/gw/platform-dev/oauth2/token&#x27;`);
    expect(html).toContain(`-X GET &#x27;${server.url}/gw/platform-dev/notifications/v1/notifications&#x27;`);
    expect(html).toContain(`fetch(&quot;${server.url}/gw/platform-dev/notifications/v1/notifications&quot;`);
    expect(html).toContain(`&quot;${server.url}/gw/platform-dev/oauth2/token&quot;,\n    data=urllib.parse.urlencode`);
    for (const env of ["sso-qa", "sso-prod", "platform-dev", "platform-prod"]) expect(html).toContain(`${server.url}/gw/${env}/oauth2/token`);
    expect(html).toContain(`href="/login?callbackUrl=${encodeURIComponent("/apis/notifications?tab=credentials&env=platform-dev")}"`);
  });

  it("shows a token API's first call against a protected API it unlocks", async () => {
    const { html } = await page("/apis/global-sso-token?tab=credentials&env=sso-qa");
    expect(html).toContain(`${server.url}/gw/sso-qa/oauth2/token`);
    expect(html).toContain("curl: first call (Notifications API)");
    expect(html).toContain(`${server.url}/gw/sso-qa/notifications/v1/notifications`);
  });

  it("renders the Reference tab shell on the server, with the spec for the chosen environment", async () => {
    const { status, html } = await page("/apis/notifications?tab=reference&env=sso-prod");
    expect(status).toBe(200);
    expect(html).toContain("Calls go to the Global SSO Production gateway.");
    expect(html).toContain(`${server.url}/gw/sso-prod/notifications`);
    expect(html).not.toContain(`${server.url}/gw/sso-qa/notifications`);
    expect(html).toContain('href="/apis/notifications/openapi.json?env=sso-prod"');
  });

  it.each([["/apis/no-such-api"], ["/apis/notifications?env=nowhere"], ["/apis/platform-token?env=sso-qa"]])("answers %s with 404", async (path) => {
    expect((await page(path)).status).toBe(404);
  });
});

describe("problem type pages", () => {
  it.each([
    ["token-expired", "Access token has expired"],
    ["token-wrong-environment", "Token belongs to another environment"],
    ["scope-missing", "Token lacks the required scope"],
  ])("explains %s", async (code, title) => {
    const { status, html } = await page(`/problems/${code}`);
    expect(status).toBe(200);
    expect(html).toContain(title);
    expect(html).toContain("What to do");
  });

  it("answers an unknown problem type with 404", async () => {
    expect((await page("/problems/no-such-problem")).status).toBe(404);
  });
});

describe("a deployment pinned to one environment", () => {
  let pinned: TestServer;

  beforeAll(async () => {
    pinned = await startServer({ env: { PORTAL_ENVIRONMENT: "platform-dev" } });
  });

  afterAll(async () => {
    await pinned?.stop();
  });

  it("shows only that environment's APIs and hides the switcher", async () => {
    const catalog = await (await fetch(`${pinned.url}/apis`)).text();
    expect(cardNames(catalog)).toEqual(["Gatehouse Management API", "Notifications API", "Platform Access Token"]);
    expect(catalog).not.toContain('name="env"');
    const apiPage = await (await fetch(`${pinned.url}/apis/notifications?tab=credentials`)).text();
    expect(apiPage).not.toContain('aria-label="Environment"');
    expect(apiPage).toContain("Environment: Platform Development");
    expect(apiPage).not.toContain("/gw/sso-qa/");
    expect((await fetch(`${pinned.url}/apis/global-sso-token`)).status).toBe(404);
    expect((await fetch(`${pinned.url}/apis/notifications/openapi.json?env=sso-qa`)).status).toBe(404);
  });
});
