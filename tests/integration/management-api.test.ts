import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { hashClientSecret } from "../../lib/oauth/client-secrets";
import { runAdmin } from "../support/admin-cli";
import { startServer, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { basic, openDb, SERVER_AUTH_SECRET, tokenRequest } from "./gateway-support";
import { signedIn } from "./portal-session";

let server: TestServer;
let db: Db;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

type Created = { id: string; token: string; scopes: string[]; expiresAt: string; user: string };

async function createToken(email: string, scopes: string, expiresIn = "30d") {
  const run = await runAdmin(server.databaseUrl, "token", "create", "--user", email, "--scopes", scopes, "--expires-in", expiresIn, "--json");
  return { ...run, created: run.code === 0 ? (JSON.parse(run.stdout) as Created) : undefined };
}

async function tokenFor(email: string, scopes: string): Promise<Created> {
  const { created, stderr } = await createToken(email, scopes);
  if (!created) throw new Error(stderr);
  return created;
}

function api(token: string | undefined, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${server.url}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function problemOf(response: Response) {
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return (await response.json()) as { type: string; status: number; detail?: string };
}

function tokenStatus(clientId: string, clientSecret: string) {
  return tokenRequest(server, "platform-dev", { headers: { authorization: basic(clientId, clientSecret) }, body: "grant_type=client_credentials" }).then(
    (response) => response.status,
  );
}

type FieldProblem = { type: string; errors?: { in: string; field: string; message: string }[] };

async function fieldsOf(response: Response) {
  expect(response.status).toBe(400);
  const body = (await problemOf(response)) as FieldProblem;
  expect(body.type).toBe(`${server.url}/problems/validation-failed`);
  return body.errors?.map((error) => `${error.in} ${error.field}`) ?? [];
}

const ORDERS_DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Orders", version: "1.0.0" },
  paths: { "/orders": { get: { responses: { "200": { description: "The orders." } } } } },
};

describe("administration through the management API", () => {
  it("creates, reads and rate-limits an environment as config apply and the CLI do, audited under the token", { timeout: 120_000 }, async () => {
    const { token, id } = await tokenFor("admin@example.com", "admin:read admin:write");
    const body = { name: "CI Staging", credentialType: "PLATFORM", selfService: true };

    const created = await api(token, "/admin/environments/ci-staging", { method: "PUT", body });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      environment: { slug: "ci-staging", name: "CI Staging", tokenLifetimeSeconds: 3600, rateLimit: { burst: 100, perSecond: 50 } },
      changes: [{ action: "create", kind: "environment", slug: "ci-staging" }],
    });
    expect(await db.environment.findUniqueOrThrow({ where: { slug: "ci-staging" } })).toMatchObject({ credentialType: "PLATFORM", selfService: true });
    const again = await api(token, "/admin/environments/ci-staging", { method: "PUT", body });
    expect(again.status).toBe(200);
    expect((await again.json()).changes).toEqual([]);
    const renamed = await api(token, "/admin/environments/ci-staging", { method: "PUT", body: { ...body, name: "CI Staging 2" } });
    expect((await renamed.json()).changes).toEqual([{ action: "update", kind: "environment", slug: "ci-staging", fields: ["name"] }]);

    const read = await api(token, "/admin/environments/ci-staging");
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ slug: "ci-staging", name: "CI Staging 2" });
    const missing = await api(token, "/admin/environments/nowhere");
    expect(missing.status).toBe(404);
    expect((await problemOf(missing)).type).toBe(`${server.url}/problems/not-found`);

    const limited = await api(token, "/admin/environments/ci-staging/rate-limit", { method: "PUT", body: { burst: 20, perSecond: 5 } });
    expect(limited.status).toBe(200);
    expect(await limited.json()).toEqual({ env: "ci-staging", burst: 20, perSecond: 5 });
    expect(await db.environment.findUniqueOrThrow({ where: { slug: "ci-staging" } })).toMatchObject({ rateLimitBurst: 20, rateLimitPerSecond: 5 });
    const unknownLimit = await api(token, "/admin/environments/nowhere/rate-limit", { method: "PUT", body: { burst: 20, perSecond: 5 } });
    expect(unknownLimit.status).toBe(404);

    expect(await fieldsOf(await api(token, "/admin/environments/ci-staging", { method: "PUT", body: { ...body, credentialType: "OTHER", extra: 1 } }))).toEqual(
      expect.arrayContaining(["body credentialType", "body extra"]),
    );
    expect(await fieldsOf(await api(token, "/admin/environments/Not_A_Slug", { method: "PUT", body }))).toEqual(["path slug"]);
    expect(await fieldsOf(await api(token, "/admin/environments/ci-staging/rate-limit", { method: "PUT", body: { burst: 0, perSecond: 5 } }))).toEqual([
      "body burst",
    ]);

    const events = await db.auditEvent.findMany({ where: { actorLabel: `token:${id}` } });
    expect(events.filter((event) => event.action === "config.apply").map((event) => event.targetId)).toEqual([
      "api:environment:ci-staging",
      "api:environment:ci-staging",
    ]);
    expect(events.some((event) => event.action === "environment.rate-limit" && event.targetId === "ci-staging")).toBe(true);
    expect(events.filter((event) => event.action === "access-token.use")).toHaveLength(10);
  });

  it("lists, validates, registers, updates and deletes a proxied API through the configuration file's entry", { timeout: 120_000 }, async () => {
    const { token } = await tokenFor("admin@example.com", "admin:read admin:write");
    const listed = await (await api(token, "/admin/apis")).json();
    expect(listed.apis.find((item: { slug: string }) => item.slug === "notifications")).toMatchObject({ kind: "NOTIFICATIONS", public: false });

    const valid = await api(token, "/admin/openapi-validation", { method: "POST", body: ORDERS_DOCUMENT });
    expect(await valid.json()).toEqual({ valid: true, version: "3.1.0" });
    const invalid = await (await api(token, "/admin/openapi-validation", { method: "POST", body: { openapi: "3.1.0", info: {} } })).json();
    expect(invalid.valid).toBe(false);
    expect(invalid.errors.length).toBeGreaterThan(0);
    // Nested past the stack the checks walk it on, within the 64 KiB a body may hold: named, never a 500.
    const deep = JSON.stringify({ ...ORDERS_DOCUMENT, "x-deep": "here" }).replace('"here"', `${"[".repeat(30_000)}${"]".repeat(30_000)}`);
    const nested = await fetch(`${server.url}/api/v1/admin/openapi-validation`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: deep,
    });
    expect(nested.status).toBe(200);
    expect(await nested.json()).toEqual({
      valid: false,
      errors: [{ pointer: `/x-deep${"/0".repeat(256)}`, message: "nests objects and arrays more than 256 levels deep" }],
    });

    const entry = {
      name: "CI Orders",
      summary: "Orders for CI.",
      version: "1.0.0",
      visibility: "protected",
      scopes: ["orders:read", { name: "orders:write", description: "Place orders" }],
      openapi: ORDERS_DOCUMENT,
      guides: [{ slug: "errors", title: "Errors", content: "Every error is problem+json." }],
      environments: { "platform-dev": { targets: [{ url: "http://127.0.0.1:9" }] } },
    };
    const registered = await api(token, "/admin/apis/ci-orders", { method: "PUT", body: entry });
    expect(registered.status).toBe(201);
    expect((await registered.json()).changes).toEqual([{ action: "create", kind: "api", slug: "ci-orders" }]);
    const stored = await db.api.findUniqueOrThrow({
      where: { slug: "ci-orders" },
      include: { scopes: true, environments: { include: { environment: true } } },
    });
    expect([stored.kind, stored.isPublic, JSON.parse(stored.openapiDocument ?? "{}").info.title]).toEqual(["PROXY", false, "Orders"]);
    expect(stored.scopes.map((scope) => scope.name).sort()).toEqual(["orders:read", "orders:write"]);
    expect(stored.environments.map((served) => served.environment.slug)).toEqual(["platform-dev"]);

    const read = await (await api(token, "/admin/apis/ci-orders")).json();
    expect(read).toMatchObject({
      slug: "ci-orders",
      kind: "PROXY",
      environments: ["platform-dev"],
      configuration: { name: "CI Orders", openapi: ORDERS_DOCUMENT },
    });
    expect((await (await api(token, "/admin/apis/notifications")).json()).configuration).toBeNull();

    const updated = await api(token, "/admin/apis/ci-orders", { method: "PUT", body: { ...entry, version: "1.1.0" } });
    expect(updated.status).toBe(200);
    expect((await updated.json()).changes).toEqual([{ action: "update", kind: "api", slug: "ci-orders", fields: ["version"] }]);
    expect((await db.api.findUniqueOrThrow({ where: { slug: "ci-orders" } })).version).toBe("1.1.0");
    const { slug: _slug, ...configuration } = (await (await api(token, "/admin/apis/ci-orders")).json()).configuration;
    expect(configuration.guides).toEqual(entry.guides);
    const roundTrip = await api(token, "/admin/apis/ci-orders", { method: "PUT", body: configuration });
    expect(roundTrip.status).toBe(200);
    expect((await roundTrip.json()).changes).toEqual([]);

    expect(await fieldsOf(await api(token, "/admin/apis/notifications", { method: "PUT", body: entry }))).toEqual(["path slug"]);
    expect(await fieldsOf(await api(token, "/admin/apis/management", { method: "PUT", body: entry }))).toEqual(["path slug"]);
    expect(
      await fieldsOf(
        await api(token, "/admin/apis/ci-orders", {
          method: "PUT",
          body: { ...entry, environments: { nowhere: { targets: [{ url: "http://127.0.0.1:9" }] } } },
        }),
      ),
    ).toEqual(expect.arrayContaining(["body environments.nowhere"]));
    expect(await fieldsOf(await api(token, "/admin/apis/ci-orders", { method: "PUT", body: { ...entry, openapi: { openapi: "3.1.0" } } }))).toContain(
      "body openapi",
    );
    const { name: _name, ...nameless } = entry;
    expect(await fieldsOf(await api(token, "/admin/apis/ci-orders", { method: "PUT", body: nameless }))).toEqual(["body name"]);
    expect((await db.api.findUniqueOrThrow({ where: { slug: "ci-orders" } })).version).toBe("1.1.0");

    expect((await api(token, "/admin/apis/nowhere")).status).toBe(404);
    const builtIn = await api(token, "/admin/apis/notifications", { method: "DELETE" });
    expect(builtIn.status).toBe(404);
    expect((await problemOf(builtIn)).detail).toContain("no proxied API");

    const deleted = await api(token, "/admin/apis/ci-orders", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ changes: [{ action: "delete", kind: "api", slug: "ci-orders" }] });
    expect(await db.api.findUnique({ where: { slug: "ci-orders" } })).toBeNull();
    expect(await db.api.findUnique({ where: { slug: "notifications" } })).not.toBeNull();
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "config.apply", targetId: "api:api:ci-orders" }, orderBy: { at: "desc" } });
    expect(audit.details).toMatchObject({ changes: [{ action: "delete", slug: "ci-orders" }] });
  });

  it("lists every credential with filters, grants and revokes an API, and sets and clears a credential's rate limit", { timeout: 120_000 }, async () => {
    const admin = await tokenFor("admin@example.com", "admin:read admin:write");
    const developer = await tokenFor("developer@example.com", "credentials:write");
    const { credential } = await (
      await api(developer.token, "/credentials", { method: "POST", body: { application: "Admin managed", environment: "platform-dev" } })
    ).json();

    const all = await (await api(admin.token, "/admin/credentials?environment=platform-dev&owner=Developer@example.com")).json();
    expect(all.credentials.map((item: { clientId: string }) => item.clientId)).toContain(credential.clientId);
    const none = await (await api(admin.token, "/admin/credentials?environment=sso-qa&application=Admin%20managed")).json();
    expect(none.credentials).toEqual([]);
    expect(await fieldsOf(await api(admin.token, "/admin/credentials?owner=not-an-address&color=red"))).toEqual(
      expect.arrayContaining(["query owner", "query color"]),
    );

    const granted = await api(admin.token, `/admin/credentials/${credential.clientId}/grants/notifications`, {
      method: "PUT",
      body: { scopes: ["notifications:read"] },
    });
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({ clientId: credential.clientId, api: "notifications", scopes: ["notifications:read"] });
    const grant = await db.grant.findFirstOrThrow({ where: { credential: { clientId: credential.clientId }, api: { slug: "notifications" } } });
    expect(grant.scopes).toBe("notifications:read");
    expect(
      await fieldsOf(await api(admin.token, `/admin/credentials/${credential.clientId}/grants/notifications`, { method: "PUT", body: { scopes: ["nope"] } })),
    ).toEqual(["body scopes"]);
    expect((await api(admin.token, "/admin/credentials/gci_nobody/grants/notifications", { method: "PUT", body: {} })).status).toBe(404);

    const own = await api(admin.token, `/admin/credentials/${credential.clientId}/rate-limit`, { method: "PUT", body: { burst: 7, perSecond: 3 } });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ clientId: credential.clientId, override: { burst: 7, perSecond: 3 } });
    expect(await db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId } })).toMatchObject({ rateLimitBurst: 7, rateLimitPerSecond: 3 });
    expect(await fieldsOf(await api(admin.token, `/admin/credentials/${credential.clientId}/rate-limit`, { method: "PUT", body: { burst: "many" } }))).toEqual(
      expect.arrayContaining(["body burst", "body perSecond"]),
    );
    const cleared = await api(admin.token, `/admin/credentials/${credential.clientId}/rate-limit`, { method: "DELETE" });
    expect((await cleared.json()).override).toBeNull();
    expect((await db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId } })).rateLimitBurst).toBeNull();
    expect((await api(admin.token, "/admin/credentials/gci_nobody/rate-limit", { method: "DELETE" })).status).toBe(404);

    const revoked = await api(admin.token, `/admin/credentials/${credential.clientId}/grants/notifications`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(await db.grant.findFirst({ where: { credential: { clientId: credential.clientId }, api: { slug: "notifications" } } })).toBeNull();
    expect((await api(admin.token, `/admin/credentials/${credential.clientId}/grants/notifications`, { method: "DELETE" })).status).toBe(404);

    const actions = (await db.auditEvent.findMany({ where: { actorLabel: `token:${admin.id}`, targetId: credential.clientId } })).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(["credential.rate-limit", "credential.rate-limit.clear", "credential.grant.revoke"]));
  });

  it("refuses every admin operation to a developer's token with 403, even one stored with admin scopes", { timeout: 120_000 }, async () => {
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const adminCalls = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => method !== "parameters")
        .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, "x") })),
    );
    expect(adminCalls.filter((call) => call.path.startsWith("/admin/")).length).toBeGreaterThanOrEqual(17);

    const developer = await tokenFor("developer@example.com", "credentials:read credentials:write usage:read");
    const smuggled = `gpat_${"D".repeat(43)}`;
    const user = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
    await db.accessToken.create({
      data: {
        id: "pat_smuggled",
        userId: user.id,
        name: "admin scopes written around the check",
        scopes: "admin:read admin:write",
        hash: hashClientSecret(smuggled, SERVER_AUTH_SECRET),
        hint: smuggled.slice(-4),
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    for (const token of [developer.token, smuggled]) {
      for (const { method, path } of adminCalls.filter((call) => call.path.startsWith("/admin/"))) {
        const response = await api(token, path, { method, body: method === "GET" || method === "DELETE" ? undefined : {} });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect((await problemOf(response)).type).toBe(`${server.url}/problems/access-token-scope-missing`);
      }
    }
  });
});

describe("management API with personal access tokens", () => {
  it("token create prints the token once and stores only its hash", { timeout: 120_000 }, async () => {
    const created = await tokenFor("developer@example.com", "credentials:read credentials:write");
    expect(created).toMatchObject({
      id: expect.stringMatching(/^pat_/),
      token: expect.stringMatching(/^gpat_[A-Za-z0-9_-]{43}$/),
      user: "developer@example.com",
    });
    expect(created.scopes).toEqual(["credentials:read", "credentials:write"]);
    const row = await db.accessToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.hash).toBe(hashClientSecret(created.token, SERVER_AUTH_SECRET));
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(row.hint).toBe(created.token.slice(-4));
    const days = (row.expiresAt.getTime() - row.createdAt.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(30);

    const listed = await runAdmin(server.databaseUrl, "token", "list", "--user", "developer@example.com", "--json");
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(created.token);
    expect(JSON.parse(listed.stdout).tokens.map((token: { id: string }) => token.id)).toContain(created.id);
  });

  it("creates, lists, rotates with an overlap and revokes a credential; every use audited", { timeout: 120_000 }, async () => {
    const { token, id } = await tokenFor("developer@example.com", "credentials:read credentials:write usage:read");

    const created = await api(token, "/credentials", { method: "POST", body: { application: "CI pipeline", environment: "platform-dev" } });
    expect(created.status).toBe(201);
    const { credential, secret } = await created.json();
    expect(credential).toMatchObject({ clientId: expect.stringMatching(/^gci_/), status: "ACTIVE", application: { name: "CI pipeline" } });
    expect(secret.clientSecret).toMatch(/^gsk_/);
    const stored = await db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId }, include: { application: { include: { owner: true } } } });
    expect(stored.application.owner?.email).toBe("developer@example.com");

    const listed = await api(token, "/credentials");
    expect(listed.status).toBe(200);
    expect(listed.headers.get("ratelimit-policy")).toBe('"client";q=60;w=30');
    const { credentials } = await listed.json();
    expect(credentials.map((item: { clientId: string }) => item.clientId)).toContain(credential.clientId);
    expect(JSON.stringify(credentials)).not.toContain(secret.clientSecret);

    const applications = await (await api(token, "/applications")).json();
    expect(applications.applications.find((app: { name: string }) => app.name === "CI pipeline").credentials).toHaveLength(1);

    const rotated = await api(token, `/credentials/${credential.clientId}/secrets`, { method: "POST", body: { overlapSeconds: 600 } });
    expect(rotated.status).toBe(201);
    const next = await rotated.json();
    expect(next.clientSecret).toMatch(/^gsk_/);
    expect(next.clientSecret).not.toBe(secret.clientSecret);
    expect(new Date(next.previousSecretValidUntil).getTime() - Date.now()).toBeGreaterThan(590_000);
    expect(await tokenStatus(credential.clientId, secret.clientSecret)).toBe(200);
    expect(await tokenStatus(credential.clientId, next.clientSecret)).toBe(200);

    const badOverlap = await api(token, `/credentials/${credential.clientId}/secrets`, { method: "POST", body: { overlapSeconds: 90_000, extra: 1 } });
    expect(badOverlap.status).toBe(400);
    expect((await problemOf(badOverlap)).type).toBe(`${server.url}/problems/validation-failed`);

    const usage = await api(token, "/usage?range=30d");
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ range: "30d", totals: { requests: expect.any(Number) } });

    const revoked = await api(token, `/credentials/${credential.clientId}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ clientId: credential.clientId, status: "REVOKED" });
    expect((await db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId } })).status).toBe("REVOKED");

    const events = await db.auditEvent.findMany({ where: { actorLabel: `token:${id}` }, orderBy: { at: "asc" } });
    expect(events.filter((event) => event.action === "access-token.use")).toHaveLength(7);
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining(["credential.create", "credential.secret.issue", "credential.secret.rotate", "credential.revoke"]),
    );
    const row = await db.accessToken.findUniqueOrThrow({ where: { id } });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("answers another user's credential with 404 and refuses missing scopes", { timeout: 120_000 }, async () => {
    await runAdmin(server.databaseUrl, "user", "create", "--email", "other@example.com", "--password", "other-password-for-tests", "--role", "DEVELOPER");
    const other = await tokenFor("other@example.com", "credentials:read credentials:write");
    const mine = await tokenFor("developer@example.com", "credentials:read credentials:write");
    const { credential } = await (
      await api(mine.token, "/credentials", { method: "POST", body: { application: "Mine only", environment: "platform-dev" } })
    ).json();

    for (const [method, path, body] of [
      ["DELETE", `/credentials/${credential.clientId}`, undefined],
      ["POST", `/credentials/${credential.clientId}/secrets`, { overlapSeconds: 0 }],
    ] as const) {
      const response = await api(other.token, path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await problemOf(response)).type).toBe(`${server.url}/problems/not-found`);
    }
    expect((await db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId } })).status).toBe("ACTIVE");
    const theirs = await (await api(other.token, "/credentials")).json();
    expect(theirs.credentials).toEqual([]);

    const readOnly = await tokenFor("developer@example.com", "credentials:read");
    const refused = await api(readOnly.token, `/credentials/${credential.clientId}`, { method: "DELETE" });
    expect(refused.status).toBe(403);
    expect(await problemOf(refused)).toMatchObject({ type: `${server.url}/problems/access-token-scope-missing` });
    expect(refused.headers.get("www-authenticate")).toContain('scope="credentials:write"');
  });

  it("keeps admin scopes to administrators", { timeout: 120_000 }, async () => {
    const refused = await createToken("developer@example.com", "admin:read");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("admin scopes need the ADMIN role");

    const admin = await tokenFor("admin@example.com", "admin:read");
    const environments = await api(admin.token, "/admin/environments");
    expect(environments.status).toBe(200);
    expect((await environments.json()).environments.map((env: { slug: string }) => env.slug)).toContain("platform-dev");
    expect((await api(admin.token, "/admin/access-requests?status=PENDING")).status).toBe(200);

    const decider = await tokenFor("admin@example.com", "admin:read admin:write");
    const request = await db.accessRequest.create({
      data: { id: `req_${Date.now()}`, topic: "OTHER", name: "Dana", email: "dana@example.com", message: "Please call me back." },
    });
    const pending = await (await api(decider.token, "/admin/access-requests")).json();
    expect(pending.requests.map((item: { id: string }) => item.id)).toContain(request.id);
    const rejected = await api(decider.token, `/admin/access-requests/${request.id}/reject`, { method: "POST", body: { reason: "Answered by mail" } });
    expect(rejected.status).toBe(200);
    expect(await rejected.json()).toEqual({ id: request.id, status: "REJECTED" });
    const decided = await db.accessRequest.findUniqueOrThrow({ where: { id: request.id }, include: { decidedBy: true } });
    expect([decided.status, decided.decisionReason, decided.decidedBy?.email]).toEqual(["REJECTED", "Answered by mail", "admin@example.com"]);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { targetId: request.id, action: "access-request.reject" } });
    expect(audit.actorLabel).toBe(`token:${decider.id}`);
    const again = await api(decider.token, `/admin/access-requests/${request.id}/reject`, { method: "POST", body: { reason: "twice" } });
    expect(again.status).toBe(409);

    const developer = await tokenFor("developer@example.com", "credentials:read");
    const forbidden = await api(developer.token, "/admin/environments");
    expect(forbidden.status).toBe(403);

    // A token whose owner is no longer an administrator loses its admin scopes.
    await db.user.update({ where: { email: "admin@example.com" }, data: { role: "DEVELOPER" } });
    try {
      expect((await api(admin.token, "/admin/environments")).status).toBe(403);
    } finally {
      await db.user.update({ where: { email: "admin@example.com" }, data: { role: "ADMIN" } });
    }
  });

  it("refuses missing, expired and revoked tokens and session cookies with 401", { timeout: 120_000 }, async () => {
    const missing = await api(undefined, "/credentials");
    expect(missing.status).toBe(401);
    expect((await problemOf(missing)).type).toBe(`${server.url}/problems/access-token-required`);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");

    const portal = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
    const viaCookie = await portal.get("/api/v1/credentials");
    expect(viaCookie.status).toBe(401);
    expect((await problemOf(viaCookie)).type).toBe(`${server.url}/problems/access-token-required`);

    const unknown = await api(`gpat_${"A".repeat(43)}`, "/credentials");
    expect(unknown.status).toBe(401);
    expect((await problemOf(unknown)).type).toBe(`${server.url}/problems/access-token-invalid`);

    const expired = await tokenFor("developer@example.com", "credentials:read");
    await db.accessToken.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expiredAnswer = await api(expired.token, "/credentials");
    expect(expiredAnswer.status).toBe(401);
    expect((await problemOf(expiredAnswer)).detail).toContain("expired");

    const revoked = await tokenFor("developer@example.com", "credentials:read");
    expect((await api(revoked.token, "/credentials")).status).toBe(200);
    const revoking = await runAdmin(server.databaseUrl, "token", "revoke", revoked.id, "--json");
    expect(revoking.code).toBe(0);
    const revokedAnswer = await api(revoked.token, "/credentials");
    expect(revokedAnswer.status).toBe(401);
    expect((await problemOf(revokedAnswer)).detail).toContain("revoked");
  });

  it("limits each token's rate with 429 and Retry-After, other tokens unaffected", { timeout: 120_000 }, async () => {
    const busy = await tokenFor("developer@example.com", "credentials:read");
    const calm = await tokenFor("developer@example.com", "credentials:read");
    const statuses: number[] = [];
    let limited: Response | undefined;
    // Batches of concurrent requests outrun the refill (2 a second) however slow the machine is.
    for (let batch = 0; batch < 15 && !limited; batch++) {
      const responses = await Promise.all(Array.from({ length: 20 }, () => api(busy.token, "/credentials")));
      for (const response of responses) {
        statuses.push(response.status);
        if (response.status === 429 && !limited) limited = response;
        else await response.body?.cancel();
      }
    }
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await problemOf(limited!)).type).toBe(`${server.url}/problems/access-token-rate-limited`);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(60);
    expect((await api(calm.token, "/credentials")).status).toBe(200);
  });

  it("serves an OpenAPI 3.1 document of every operation, with scopes", async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: `${server.url}/api/v1`, "x-internal": false }]);
    const rotate = document.paths["/credentials/{clientId}/secrets"].post;
    expect(rotate["x-required-scope"]).toBe("credentials:write");
    expect(rotate.requestBody.content["application/json"].schema).toMatchObject({
      properties: { overlapSeconds: { type: "integer", minimum: 0, maximum: 86_400 } },
      required: ["overlapSeconds"],
      additionalProperties: false,
    });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/applications", "/credentials", "/credentials/{clientId}", "/usage", "/admin/environments", "/admin/access-requests"]),
    );
  });
});
