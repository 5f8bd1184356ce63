import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { type PortalClient, signedIn, signIn } from "./portal-session";

let server: TestServer;
let database: Db;
let developer: PortalClient;
let admin: PortalClient;

beforeAll(async () => {
  server = await startServer();
  database = createDb(server.databaseUrl);
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
});

afterAll(async () => {
  await database?.$disconnect();
  await server?.stop();
});

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("admin routes", () => {
  it("refuse developers on every admin route and page", async () => {
    const routes: [string, unknown][] = [
      ["/api/portal/admin/credentials", { owner: "developer@example.com", application: "X", environment: "sso-prod" }],
      ["/api/portal/admin/credentials/gci_any/revoke", {}],
      ["/api/portal/admin/users", { email: "x@example.com", name: "X", password: "long-enough-password", role: "ADMIN" }],
      ["/api/portal/admin/users/usr_any", { role: "ADMIN" }],
      ["/api/portal/admin/notifications", { environment: "sso-qa", title: "Hi" }],
    ];
    for (const [path, body] of routes) expect((await developer.post(path, body)).status, path).toBe(403);
    expect((await developer.get("/api/portal/admin/credentials")).status).toBe(403);
    for (const page of ["/admin", "/admin/credentials", "/admin/users", "/admin/notifications", "/admin/audit", "/admin/deprecations"]) {
      expect((await developer.get(page)).status, page).toBe(403);
      expect((await admin.get(page)).status, page).toBeLessThan(400);
    }
    const developerUser = await database.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
    expect(developerUser.role).toBe("DEVELOPER");
  });

  it("issue a credential without a secret and revoke any credential", async () => {
    const invalid = await admin.post("/api/portal/admin/credentials", { owner: "nobody@example.com", application: "", environment: "nowhere" });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()).errors as { field: string }[]).map((error) => error.field)).toEqual(["application"]);
    const unknownOwner = await admin.post("/api/portal/admin/credentials", { owner: "nobody@example.com", application: "App", environment: "nowhere" });
    expect(((await unknownOwner.json()).errors as { field: string }[]).map((error) => error.field)).toEqual(["owner", "environment"]);
    const issued = await admin.post("/api/portal/admin/credentials", {
      owner: "developer@example.com",
      application: "Issued App",
      environment: "platform-prod",
    });
    expect(issued.status).toBe(201);
    const credential = await issued.json();
    expect(credential.secrets).toEqual([]);
    expect(JSON.stringify(credential)).not.toMatch(/gsk_/);
    const mine = await (await developer.get("/api/portal/credentials")).text();
    expect(mine).toContain(credential.clientId);
    const revoked = await admin.post(`/api/portal/admin/credentials/${credential.clientId}/revoke`);
    expect(revoked.status).toBe(200);
    const audit = await database.auditEvent.findMany({ where: { targetId: credential.clientId } });
    expect(audit.map((event) => [event.action, event.actorLabel])).toEqual([
      ["credential.create", "admin@example.com"],
      ["credential.revoke", "admin@example.com"],
    ]);
  });

  it("create users, change roles and disable accounts, never their own", async () => {
    const weak = await admin.post("/api/portal/admin/users", { email: "new@example.com", name: "New", password: "short", role: "DEVELOPER" });
    expect((await weak.json()).errors[0].field).toBe("password");
    const created = await admin.post("/api/portal/admin/users", {
      email: "new@example.com",
      name: "New",
      password: "a-long-enough-password",
      role: "DEVELOPER",
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect(await signIn(server, "new@example.com", "a-long-enough-password")).not.toBeNull();
    expect((await admin.post(`/api/portal/admin/users/${id}`, { role: "ADMIN" })).status).toBe(200);
    expect((await database.user.findUniqueOrThrow({ where: { id } })).role).toBe("ADMIN");
    expect((await admin.post(`/api/portal/admin/users/${id}`, { disabled: true })).status).toBe(200);
    expect(await signIn(server, "new@example.com", "a-long-enough-password")).toBeNull();
    const self = await database.user.findUniqueOrThrow({ where: { email: "admin@example.com" } });
    expect((await admin.post(`/api/portal/admin/users/${self.id}`, { role: "DEVELOPER" })).status).toBe(409);
    expect((await admin.post("/api/portal/admin/users/usr_missing", { role: "ADMIN" })).status).toBe(404);
  });

  it("compose a notification to one client or to all clients of an environment", async () => {
    const created = await developer.post("/api/portal/credentials", { application: "Inbox App", environment: "sso-qa" });
    const { secret } = await created.json();
    const one = await admin.post("/api/portal/admin/notifications", { environment: "sso-qa", clientId: secret.clientId, title: "Just you" });
    expect(one.status).toBe(201);
    expect((await one.json()).ids).toHaveLength(1);
    const all = await admin.post("/api/portal/admin/notifications", { environment: "sso-qa", title: "Everyone", severity: "warning" });
    const active = await database.credential.count({ where: { environment: { slug: "sso-qa" }, status: "ACTIVE" } });
    expect((await all.json()).ids).toHaveLength(active);
    expect(await database.notification.count({ where: { clientId: secret.clientId } })).toBe(2);
    const invalid = await admin.post("/api/portal/admin/notifications", { environment: "sso-qa", title: "", severity: "loud" });
    expect(((await invalid.json()).errors as { field: string }[]).map((error) => error.field).sort()).toEqual(["severity", "title"]);
  });
});

describe("secrets", () => {
  it("never reach the server log or the client bundles", async () => {
    const created = await developer.post("/api/portal/credentials", { application: "Leak Check", environment: "platform-dev" });
    const { secret } = await created.json();
    const rotated = await (await developer.post(`/api/portal/credentials/${secret.clientId}/rotate`, { graceHours: 1 })).json();
    await developer.get("/settings/credentials");
    const output = await server.settledOutput();
    for (const value of [secret.clientSecret, rotated.clientSecret]) expect(output).not.toContain(value);
    const page = await (await developer.get("/settings/credentials")).text();
    expect(page).toContain(secret.clientId);
    expect(page).not.toMatch(/gsk_[A-Za-z0-9_-]{43}/);
    const bundles = join(import.meta.dirname, "..", "..", process.env.NEXT_DIST_DIR || ".next", "static");
    const leaked = filesUnder(bundles).filter((file) => /gsk_[A-Za-z0-9_-]{43}/.test(readFileSync(file, "utf8")));
    expect(leaked).toEqual([]);
  });
});
