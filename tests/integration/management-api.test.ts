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
