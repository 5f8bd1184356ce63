// An API's gateway policies, set from the configuration file, /api/v1 and the admin console: one
// server for the three, each writing through setApiPolicies and reading back what the others wrote.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { runAdmin } from "../support/admin-cli";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { openDb } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

const DOCUMENT = `
      openapi: 3.1.0
      info: { title: Shelf, version: 1.0.0 }
      paths:
        /v1/items:
          get: { responses: { "200": { description: The items } } }
          post: { responses: { "201": { description: Added } } }
        /v1/items/{id}:
          get: { responses: { "200": { description: An item } } }
`;

/** The shape docs/configuration-file.md shows, as an operator writes it, on an API whose document declares the routes. */
const POLICIES = `    policies:
      requestValidation: { mode: enforce }
      responseCache: { ttlSeconds: 30 }
      websocket: { idleTimeoutSeconds: 300, maxMessageBytes: 1048576, maxConnectionsPerClient: 20 }
    routes:
      "GET /v1/items/{id}":
        responseCache: { ttlSeconds: 300 }
      "POST /v1/items":
        requestValidation: { mode: report }
`;

const shelf = (policies: string) => `apis:
  - slug: shelf
    name: Shelf
    summary: Items on the shelf
    visibility: protected
    versions:
      - version: v1
        openapi:${DOCUMENT.replaceAll("\n      ", "\n          ")}    environments:
      sso-qa:
        targets: [{ url: "http://127.0.0.1:4501" }]
${policies}`;

const STORED = {
  policies: {
    requestValidation: { mode: "enforce" },
    responseCache: { ttlSeconds: 30, shared: false },
    websocket: { idleTimeoutSeconds: 300, maxMessageBytes: 1_048_576, maxConnectionsPerClient: 20 },
  },
  routes: {
    "GET /v1/items/{id}": { responseCache: { ttlSeconds: 300, shared: false } },
    "POST /v1/items": { requestValidation: { mode: "report" } },
  },
};

let server: TestServer;
let db: Db;
let admin: PortalClient;
const folder = mkdtempSync(join(tmpdir(), "gatehouse-policies-"));

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

const config = (...args: string[]) => runAdmin(server.databaseUrl, "config", ...args);

async function storedPolicies(slug = "shelf") {
  return JSON.parse(JSON.stringify((await db.api.findUniqueOrThrow({ where: { slug } })).policies));
}

const policyAudits = () => db.auditEvent.count({ where: { action: "api.policies", targetId: "shelf" } });

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe("policies in the configuration file", { timeout: 120_000 }, () => {
  it("applies the shape as written, audited, and applies it again with no changes", async () => {
    const path = file("shelf.yaml", shelf(POLICIES));
    expect(await config("diff", "-f", path)).toMatchObject({ code: 0, stdout: "would change:\n  create api shelf\n" });
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "changed:\n  create api shelf\n" });
    expect(await storedPolicies()).toEqual(STORED);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "api.policies", targetId: "shelf" } });
    expect(audit.actorLabel).toBe("cli");
    expect(JSON.parse(JSON.stringify(audit.details))).toEqual({
      policies: ["requestValidation", "responseCache", "websocket"],
      routes: ["GET /v1/items/{id}", "POST /v1/items"],
    });
    const audits = await policyAudits();
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });
    expect(await policyAudits()).toBe(audits);
  });

  it("exports them, and what export wrote applies with no changes", async () => {
    const exported = await config("export");
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(
      "    routes:\n      POST /v1/items:\n        requestValidation:\n          mode: report\n      GET /v1/items/{id}:\n        responseCache:\n          ttlSeconds: 300\n",
    );
    expect(await config("apply", "-f", file("exported.yaml", exported.stdout))).toMatchObject({ code: 0, stdout: "no changes\n" });
  });

  it("shows a policy change in diff, and removes the policies a file leaves out", async () => {
    const changed = file("changed.yaml", shelf(POLICIES.replace("ttlSeconds: 300", "ttlSeconds: 600")));
    expect(await config("diff", "-f", changed)).toMatchObject({ code: 0, stdout: "would change:\n  update api shelf: routes\n" });
    expect(await config("apply", "-f", changed)).toMatchObject({ code: 0, stdout: "changed:\n  update api shelf: routes\n" });
    expect((await storedPolicies()).routes["GET /v1/items/{id}"]).toEqual({ responseCache: { ttlSeconds: 600, shared: false } });

    const without = file("without.yaml", shelf(""));
    expect(await config("apply", "-f", without)).toMatchObject({ code: 0, stdout: "changed:\n  update api shelf: policies, routes\n" });
    expect(await storedPolicies()).toEqual({});
    expect((await config("export")).stdout).not.toMatch(/^ {4}(policies|routes):/m);
    expect(await config("apply", "-f", without)).toMatchObject({ code: 0, stdout: "no changes\n" });
  });

  it("refuses a route key naming no operation, a malformed one and an unknown policy field, each at its line, and changes nothing", async () => {
    const before = { policies: await storedPolicies(), audits: await policyAudits() };
    const misnamed = POLICIES.replace('"POST /v1/items"', '"POST /v1/itemz"').replace("websocket: {", "colour: blue\n      websocket: {");
    const wrong = `${misnamed}      "FETCH /v1/items": {}\n`;
    const path = file("wrong.yaml", shelf(wrong));
    const run = await config("apply", "-f", path);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${path} has 3 error(s); nothing was changed:\n`);
    expect(run.stdout).toContain(`${path}:23: apis[0].policies.colour: unknown field`);
    expect(run.stdout).toContain(`${path}:28: apis[0].routes.POST /v1/itemz: "POST /v1/itemz" names no operation: no document of v1 declares it`);
    expect(run.stdout).toMatch(new RegExp(`${path}:30: apis\\[0\\]\\.routes\\.FETCH /v1/items: Name a route as "METHOD /path-template"`));
    expect({ policies: await storedPolicies(), audits: await policyAudits() }).toEqual(before);
  });
});

type Problem = { type: string; status: number; detail: string; errors?: { in: string; field: string; message: string }[] };

describe("policies through /api/v1", { timeout: 120_000 }, () => {
  async function tokenFor(email: string, scopes: string): Promise<string> {
    const run = await runAdmin(server.databaseUrl, "token", "create", "--user", email, "--scopes", scopes, "--expires-in", "1d", "--json");
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout).token;
  }

  const call = (token: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/v1${path}`, {
      method: body === undefined ? "GET" : "PUT",
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function refused(response: Response, status: number): Promise<Problem> {
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    return (await response.json()) as Problem;
  }

  it("sets them, reads them back with the API, and refuses what the schema or the documents do not allow", async () => {
    const token = await tokenFor("admin@example.com", "admin:read admin:write");
    const set = await call(token, "/admin/apis/shelf/policies", STORED);
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual(STORED);
    expect(await storedPolicies()).toEqual(STORED);
    expect(await (await call(token, "/admin/apis/shelf/policies")).json()).toEqual(STORED);
    expect((await (await call(token, "/admin/apis/shelf")).json()).configuration).toMatchObject(STORED);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "api.policies", targetId: "shelf" }, orderBy: { at: "desc" } });
    expect(audit.actorLabel).toMatch(/^token:pat_/);

    const audits = await policyAudits();
    const unknownRoute = await refused(await call(token, "/admin/apis/shelf/policies", { routes: { "DELETE /v1/items/{id}": {} } }), 400);
    expect(unknownRoute.type).toBe(`${server.url}/problems/validation-failed`);
    expect(unknownRoute.errors).toEqual([
      { in: "body", field: "routes.DELETE /v1/items/{id}", message: '"DELETE /v1/items/{id}" names no operation: no document of v1 declares it' },
    ]);
    const unknownField = await refused(
      await call(token, "/admin/apis/shelf/policies", { policies: { responseCache: { ttlSeconds: 5, colour: "blue" } }, extra: 1 }),
      400,
    );
    expect(unknownField.errors?.map((error) => `${error.in} ${error.field}`).sort()).toEqual(["body extra", "body policies.responseCache.colour"]);
    const outOfBounds = await refused(await call(token, "/admin/apis/shelf/policies", { policies: { responseCache: { ttlSeconds: -1 } } }), 400);
    expect(outOfBounds.errors?.map((error) => error.field)).toEqual(["policies.responseCache.ttlSeconds"]);
    const longKey = `GET /${"a".repeat(5000)}`;
    const huge = await refused(await call(token, "/admin/apis/shelf/policies", { routes: { [longKey]: {} } }), 400);
    expect(huge.errors?.[0]?.field.startsWith("routes.")).toBe(true);
    expect((await refused(await call(token, "/admin/apis/shelf/policies", [STORED]), 400)).type).toBe(`${server.url}/problems/validation-failed`);
    const builtIn = await refused(await call(token, "/admin/apis/notifications/policies", {}), 400);
    expect(builtIn.errors).toEqual([{ in: "path", field: "slug", message: '"notifications" is a built-in API: policies apply to proxied APIs' }]);
    expect((await refused(await call(token, "/admin/apis/nowhere/policies", {}), 404)).type).toBe(`${server.url}/problems/not-found`);
    expect(await storedPolicies()).toEqual(STORED);
    expect(await policyAudits()).toBe(audits);

    // The whole entry's PUT carries them too, as the configuration file's entry does.
    const { configuration } = await (await call(token, "/admin/apis/shelf")).json();
    const unchanged = await fetch(`${server.url}/api/v1/admin/apis/shelf`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ ...configuration, slug: undefined }),
    });
    expect(unchanged.status).toBe(200);
    expect((await unchanged.json()).changes).toEqual([]);

    const cleared = await call(token, "/admin/apis/shelf/policies", {});
    expect(await cleared.json()).toEqual({});
    expect(await storedPolicies()).toEqual({});
  });

  it("refuses a developer's token", async () => {
    const token = await tokenFor("developer@example.com", "credentials:read credentials:write");
    for (const response of [await call(token, "/admin/apis/shelf/policies", STORED), await call(token, "/admin/apis/shelf/policies")]) {
      expect((await refused(response, 403)).type).toBe(`${server.url}/problems/access-token-scope-missing`);
    }
    expect(await storedPolicies()).toEqual({});
  });
});

describe("policies in the admin console", { timeout: 120_000 }, () => {
  it("saves them from the API's page, which shows them per API and per route", async () => {
    const saved = await admin.post("/api/portal/admin/apis/shelf/policies", { policies: { requestValidation: { mode: "report" } }, routes: STORED.routes });
    expect(saved.status).toBe(200);
    expect(await storedPolicies()).toEqual({ policies: { requestValidation: { mode: "report" } }, routes: STORED.routes });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "api.policies", targetId: "shelf" }, orderBy: { at: "desc" } });
    expect(audit.actorLabel).toBe("admin@example.com");

    const page = await admin.get("/admin/apis/shelf");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Gateway policies");
    expect(html).toMatch(/<th scope="row"[^>]*>Every route<\/th><td[^>]*><ul[^>]*><li>Request validation: <!-- -->report<\/li>/);
    expect(html).toMatch(
      /<th scope="row"[^>]*>GET \/v1\/items\/\{id\}<\/th><td[^>]*><ul[^>]*><li>Request validation: <!-- -->as every route<\/li><li>Response cache: <!-- -->300 s<\/li>/,
    );
    expect(html).toContain("POST /v1/items");
  });

  it("answers the errors the form shows beside its field, and refuses a developer", async () => {
    const refused = await admin.post("/api/portal/admin/apis/shelf/policies", {
      routes: { "PATCH /v1/items": {} },
      policies: { websocket: { maxMessageBytes: 0 } },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()).errors as { field: string }[]).map((error) => error.field)).toEqual(["policies.websocket.maxMessageBytes"]);
    const unknown = await admin.post("/api/portal/admin/apis/shelf/policies", { routes: { "PATCH /v1/items": {} } });
    expect(((await unknown.json()).errors as { field: string; message: string }[])[0]).toEqual({
      in: "body",
      field: "routes.PATCH /v1/items",
      message: '"PATCH /v1/items" names no operation: no document of v1 declares it',
    });
    const extra = await admin.post("/api/portal/admin/apis/shelf/policies", { policies: {}, extra: 1 });
    expect(extra.status).toBe(400);
    expect(((await extra.json()).errors as { field: string }[]).map((error) => error.field)).toEqual(["extra"]);
    const developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
    expect((await developer.post("/api/portal/admin/apis/shelf/policies", {})).status).toBe(403);
    expect((await storedPolicies()).policies).toEqual({ requestValidation: { mode: "report" } });
  });
});
