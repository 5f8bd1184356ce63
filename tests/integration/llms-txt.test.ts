import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

/** The `- [name](url): notes` lines of one `## section`. */
function links(text: string, section: string): { name: string; url: string; notes: string }[] {
  const start = text.indexOf(`\n## ${section}\n`);
  expect(start, `llms.txt has a section "${section}"`).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return [...text.slice(start, end === -1 ? undefined : end).matchAll(/^- \[([^\]]+)\]\(([^)]+)\): (.+)$/gm)].map(([, name, url, notes]) => ({
    name: name!,
    url: url!,
    notes: notes!,
  }));
}

describe("/llms.txt", () => {
  it("follows the llms.txt format: a title, a summary, then sections of links", async () => {
    const response = await fetch(`${server.url}/llms.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await response.text()).split("\n");
    expect(lines[0]).toBe("# Gatehouse developer portal");
    expect(lines[2]).toBe("> 3 APIs served through the Gatehouse gateway, each with its OpenAPI document.");
  });

  it("links every API an anonymous visitor sees to its OpenAPI document, with its one-line summary", async () => {
    const text = await (await fetch(`${server.url}/llms.txt`)).text();
    const apis = links(text, "APIs");
    expect(apis.map((api) => api.name)).toEqual(["Global SSO Access Token", "Notifications API", "Platform Access Token", "Gatehouse Management API"]);
    expect(apis.at(-1)).toEqual({
      name: "Gatehouse Management API",
      url: `${server.url}/api/v1/openapi.json`,
      notes: "Your applications, credentials and usage, for scripts and CI. (OpenAPI document; needs a personal access token)",
    });
    const notifications = apis.find((api) => api.name === "Notifications API")!;
    expect(notifications.url).toBe(`${server.url}/apis/notifications/openapi.json`);
    expect(notifications.notes).toBe("List, read and update the notifications sent to your client application. (OpenAPI document; needs a bearer token)");
    for (const api of apis) {
      const document = await fetch(api.url);
      expect(document.status, api.url).toBe(200);
      expect(document.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect((await document.json()).info.title).toBe(api.name);
    }
  });

  it("lists each environment with its token endpoint and authorization server metadata", async () => {
    const text = await (await fetch(`${server.url}/llms.txt`)).text();
    const environments = links(text, "Environments");
    expect(environments.map((env) => env.name)).toEqual(["Global SSO QA", "Global SSO Production", "Platform Development", "Platform Production"]);
    expect(environments[0]!.notes).toBe(`\`?env=sso-qa\`, token endpoint ${server.url}/gw/sso-qa/oauth2/token`);
    const metadata = await fetch(environments[0]!.url);
    expect(metadata.status).toBe(200);
    expect((await metadata.json()).token_endpoint).toBe(`${server.url}/gw/sso-qa/oauth2/token`);
  });
});

describe("the Notifications API's guides", () => {
  const guide = async (slug: string) => {
    const response = await fetch(`${server.url}/apis/notifications/guides/${slug}.md`);
    expect(response.status, slug).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    return response.text();
  };

  it("are listed in /llms.txt, each link a Markdown document", async () => {
    const text = await (await fetch(`${server.url}/llms.txt`)).text();
    const guides = links(text, "Guides");
    expect(guides.map((each) => each.url)).toEqual(
      ["getting-started", "authentication", "errors"].map((slug) => `${server.url}/apis/notifications/guides/${slug}.md`),
    );
    for (const each of guides) expect((await guide(each.url.split("/").at(-1)!.replace(".md", ""))).startsWith(`# ${each.name}\n`)).toBe(true);
  });

  it("get started from the environments, token endpoints and operations the portal knows", async () => {
    const text = await guide("getting-started");
    expect(text.startsWith("# Getting started with the Notifications API\n")).toBe(true);
    for (const env of ["sso-qa", "sso-prod", "platform-dev", "platform-prod"]) expect(text).toContain(`${server.url}/gw/${env}/oauth2/token`);
    expect(text).toContain("- **Global SSO QA** (`?env=sso-qa`): Global SSO credentials, create credentials yourself under Settings.");
    expect(text).toContain("- **Global SSO Production** (`?env=sso-prod`): Global SSO credentials, ask for credentials through Contact Us.");
    expect(text).toContain("- `GET /v1/notifications/{id}`: Fetch one notification");
    expect(text).toContain(`curl`);
  });

  it("explain authentication with the API's scopes, and errors from the problem types registry", async () => {
    const authentication = await guide("authentication");
    expect(authentication).toContain("- `notifications:read`: List and read notifications");
    expect(authentication).toContain(`- **Platform Development**: \`POST ${server.url}/gw/platform-dev/oauth2/token\` (Platform credentials)`);
    const errors = await guide("errors");
    for (const code of ["token-missing", "token-expired", "scope-missing", "rate-limited", "not-found", "validation-failed", "precondition-failed"]) {
      expect(errors).toContain(`[\`${code}\`](${server.url}/problems/${code})`);
    }
    expect(errors).toContain("## 401 Access token has expired");
    expect(errors).not.toContain("signup-closed");
    expect((await fetch(`${server.url}/problems/precondition-failed`)).status).toBe(200);
  });

  it("are pages under the API, linked from its overview and found by the catalog search", async () => {
    const page = await fetch(`${server.url}/apis/notifications/guides/errors`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<h1[^>]*>Errors of the Notifications API<\/h1>/);
    expect(await (await fetch(`${server.url}/apis/notifications`)).text()).toContain('href="/apis/notifications/guides/authentication"');
    const search = await (await fetch(`${server.url}/apis?q=token-wrong-environment`)).text();
    expect(search).toContain('href="/apis/notifications/guides/errors"');
  });

  it("answer 404 for an unknown guide or API, as a problem for the Markdown", async () => {
    for (const path of ["/apis/notifications/guides/nothing.md", "/apis/nothing/guides/errors.md"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    expect((await fetch(`${server.url}/apis/notifications/guides/nothing`)).status).toBe(404);
  });
});
