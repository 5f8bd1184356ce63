import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { hashPassword } from "../../lib/accounts/passwords";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { type PortalClient, signedIn, signIn, signInError } from "./portal-session";

let server: TestServer;
let database: Db;
let developer: PortalClient;
let other: PortalClient;
let admin: PortalClient;

const OTHER_PASSWORD = "other-developer-password";

async function createUser(email: string, password: string) {
  await database.user.create({ data: { id: newId("usr"), email, name: email, role: "DEVELOPER", passwordHash: await hashPassword(password) } });
}

beforeAll(async () => {
  server = await startServer();
  database = createDb(server.databaseUrl);
  await createUser("other@example.com", OTHER_PASSWORD);
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
  other = await signedIn(server, "other@example.com", OTHER_PASSWORD);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
});

afterAll(async () => {
  await database?.$disconnect();
  await server?.stop();
});

describe("sign-in", () => {
  it("gives a session to the right password only, and throttles repeated failures", async () => {
    expect(developer).toBeTruthy();
    await createUser("throttled@example.com", "the-right-password");
    expect(await signInError(server, "throttled@example.com", "wrong")).toBe("CredentialsSignin");
    for (let attempt = 0; attempt < 4; attempt++) await signInError(server, "throttled@example.com", "wrong");
    expect(await signInError(server, "throttled@example.com", "the-right-password")).toBe("TooManyAttempts");
    expect(await signIn(server, "throttled@example.com", "the-right-password")).toBeNull();
  });

  it("sends visitors without a session to the sign-in page and developers away from /admin", async () => {
    const anonymous = await fetch(`${server.url}/settings/credentials`, { redirect: "manual" });
    expect(anonymous.status).toBe(307);
    expect(anonymous.headers.get("location")).toMatch(/\/login\?callbackUrl=%2Fsettings%2Fcredentials$/);
    expect((await fetch(`${server.url}/admin/requests`, { redirect: "manual" })).status).toBe(307);
    expect((await developer.get("/admin/requests")).status).toBe(403);
    expect((await admin.get("/admin/requests")).status).toBe(200);
  });
});

describe("portal routes", () => {
  it("answer 401 without a session and refuse cross-site mutations", async () => {
    const anonymous = await fetch(`${server.url}/api/portal/credentials`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toBe("application/problem+json");
    const noOrigin = await developer.post("/api/portal/credentials", { application: "X", environment: "sso-qa" }, { origin: "" });
    expect(noOrigin.status).toBe(403);
    const foreign = await developer.post("/api/portal/credentials", { application: "X", environment: "sso-qa" }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).type).toBe(`${server.url}/problems/cross-site-request`);
  });

  it("validate every field and keep approval environments out of self-service", async () => {
    const invalid = await developer.post("/api/portal/credentials", { application: "", environment: "nowhere", expiresInDays: 7 });
    expect(invalid.status).toBe(400);
    const fields = ((await invalid.json()).errors as { field: string }[]).map((error) => error.field).sort();
    expect(fields).toEqual(["application", "expiresInDays"]);
    const unknown = await developer.post("/api/portal/credentials", { application: "App", environment: "nowhere" });
    expect((await unknown.json()).errors).toEqual([{ in: "body", field: "environment", message: "There is no such environment" }]);
    const production = await developer.post("/api/portal/credentials", { application: "App", environment: "sso-prod" });
    expect(production.status).toBe(403);
    expect((await production.json()).type).toBe(`${server.url}/problems/approval-required`);
    expect((await developer.post("/api/portal/credentials", "not json")).status).toBe(400);
  });
});

describe("credentials of one user", () => {
  let clientId: string;

  beforeAll(async () => {
    const created = await developer.post("/api/portal/credentials", { application: "Tenant App", environment: "platform-dev", expiresInDays: 30 });
    expect(created.status).toBe(201);
    const body = await created.json();
    clientId = body.secret.clientId;
    expect(body.secret.clientSecret).toMatch(/^gsk_[A-Za-z0-9_-]{43}$/);
    expect(body.credential.secrets).toHaveLength(1);
    expect(body.credential.secrets[0]).not.toHaveProperty("hash");
  });

  it("are listed for their owner without any secret or hash", async () => {
    const list = await developer.get("/api/portal/credentials");
    const text = await list.text();
    expect(text).toContain(clientId);
    expect(text).not.toMatch(/gsk_/);
    expect(text).not.toContain('"hash"');
  });

  it("are invisible and untouchable for another developer", async () => {
    expect(await (await other.get("/api/portal/credentials")).text()).not.toContain(clientId);
    expect((await other.get(`/api/portal/credentials/${clientId}`)).status).toBe(404);
    for (const [path, body] of [
      ["rotate", { graceHours: 1 }],
      ["secret", {}],
      ["revoke", {}],
      ["test-token", {}],
    ] as const) {
      const response = await other.post(`/api/portal/credentials/${clientId}/${path}`, body);
      expect(response.status).toBe(404);
    }
    const stored = await database.credential.findUniqueOrThrow({ where: { clientId }, include: { secrets: true } });
    expect(stored.status).toBe("ACTIVE");
    expect(stored.secrets).toHaveLength(1);
  });

  it("show a warning badge for a secret that expires within a week", async () => {
    const before = await (await developer.get("/settings/credentials")).text();
    expect(before).not.toContain("Expires soon");
    const credential = await database.credential.findUniqueOrThrow({ where: { clientId } });
    await database.credentialSecret.updateMany({ where: { credentialId: credential.id }, data: { expiresAt: new Date(Date.now() + 3 * 24 * 3600_000) } });
    const after = await (await developer.get("/settings/credentials")).text();
    expect(after).toContain("Expires soon");
  });

  it("mint a 15-minute test token for their owner from the session alone", async () => {
    const minted = await developer.post(`/api/portal/credentials/${clientId}/test-token`, {});
    expect(minted.status).toBe(201);
    const body = await minted.json();
    expect(body).toMatchObject({ tokenType: "Bearer", expiresIn: 900 });
    const claims = JSON.parse(Buffer.from(body.accessToken.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ client_id: clientId, env: "platform-dev" });
  });

  it("rotate with a grace period of at most 24 hours, then revoke", async () => {
    const tooLong = await developer.post(`/api/portal/credentials/${clientId}/rotate`, { graceHours: 25 });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).errors[0].field).toBe("graceHours");
    const rotated = await developer.post(`/api/portal/credentials/${clientId}/rotate`, { graceHours: 2 });
    expect(rotated.status).toBe(201);
    const body = await rotated.json();
    expect(body.clientSecret).toMatch(/^gsk_/);
    const graceEnd = new Date(body.previousSecretValidUntil).getTime();
    expect(Math.abs(graceEnd - Date.now() - 2 * 3600_000)).toBeLessThan(60_000);
    const revoked = await developer.post(`/api/portal/credentials/${clientId}/revoke`);
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).status).toBe("REVOKED");
    const events = await database.auditEvent.findMany({ where: { targetId: clientId }, orderBy: { at: "asc" } });
    expect(events.map((event) => event.action)).toEqual([
      "credential.create",
      "credential.secret.issue",
      "credential.test-token",
      "credential.secret.rotate",
      "credential.revoke",
    ]);
    expect(JSON.stringify(events)).not.toMatch(/gsk_/);
  });
});

describe("Contact Us and the access-request queue", () => {
  it("validates each field next to its name", async () => {
    const response = await fetch(`${server.url}/api/portal/contact`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ topic: "API_ACCESS", name: "", email: "nope", message: "" }),
    });
    expect(response.status).toBe(400);
    const fields = ((await response.json()).errors as { field: string }[]).map((error) => error.field).sort();
    expect(fields).toEqual(["api", "application", "email", "environment", "message", "name"]);
  });

  it("reads the body as /api/v1 does: 400 naming a body that is not JSON, 413 for a body too large", async () => {
    const post = (body: string) =>
      fetch(`${server.url}/api/portal/contact`, { method: "POST", headers: { origin: server.url, "content-type": "application/json" }, body });
    const notJson = await post("topic=API_ACCESS");
    expect(notJson.status).toBe(400);
    expect(notJson.headers.get("content-type")).toBe("application/problem+json");
    expect((await notJson.json()).errors).toEqual([{ in: "body", field: "", message: "is not valid JSON" }]);
    const tooLarge = await post(" ".repeat(20_000_000));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ status: 413, detail: "The request body exceeds 5000000 bytes." });
  });

  it("stores a signed-in request, shows it only to its requester, and provisions on approval", async () => {
    const sent = await developer.post("/api/portal/contact", {
      topic: "CREDENTIALS",
      environment: "sso-prod",
      application: "Launch App",
      name: "Dev Eloper",
      email: "ignored@example.com",
      message: "Production, please.",
    });
    expect(sent.status).toBe(201);
    const { id } = await sent.json();
    const stored = await database.accessRequest.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ status: "PENDING", email: "developer@example.com", credentialType: "GLOBAL_SSO" });
    expect(await (await developer.get("/api/portal/requests")).text()).toContain(id);
    expect(await (await other.get("/api/portal/requests")).text()).not.toContain(id);

    expect((await developer.post(`/api/portal/admin/requests/${id}/approve`)).status).toBe(403);
    expect((await other.post(`/api/portal/admin/requests/${id}/reject`, { reason: "no" })).status).toBe(403);

    const approved = await admin.post(`/api/portal/admin/requests/${id}/approve`);
    expect(approved.status).toBe(200);
    const { clientId } = await approved.json();
    const credential = await database.credential.findUniqueOrThrow({ where: { clientId }, include: { secrets: true, application: true, grants: true } });
    expect(credential.secrets).toHaveLength(0);
    expect(credential.application.name).toBe("Launch App");
    expect(credential.grants.length).toBeGreaterThan(0);
    expect(await database.notification.count({ where: { clientId } })).toBe(1);
    expect((await admin.post(`/api/portal/admin/requests/${id}/approve`)).status).toBe(409);

    expect((await other.post(`/api/portal/credentials/${clientId}/secret`, {})).status).toBe(404);
    const first = await developer.post(`/api/portal/credentials/${clientId}/secret`, {});
    expect(first.status).toBe(201);
    expect((await developer.post(`/api/portal/credentials/${clientId}/secret`, {})).status).toBe(409);
    const audit = await database.auditEvent.findMany({ where: { targetId: id } });
    expect(audit.map((event) => event.action).sort()).toEqual(["access-request.approve", "access-request.created"]);
  });

  it("does not provision a request sent without signing in into the account with that email", async () => {
    const sent = await fetch(`${server.url}/api/portal/contact`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": "203.0.113.77" },
      body: JSON.stringify({
        topic: "CREDENTIALS",
        environment: "sso-prod",
        application: "Planted App",
        name: "Someone",
        email: "developer@example.com",
        message: "For the developer",
      }),
    });
    expect(sent.status).toBe(201);
    const { id } = await sent.json();
    const refused = await admin.post(`/api/portal/admin/requests/${id}/approve`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).type).toBe(`${server.url}/problems/requester-without-account`);
    expect(await database.application.count({ where: { name: "Planted App" } })).toBe(0);
    expect((await database.accessRequest.findUniqueOrThrow({ where: { id } })).status).toBe("PENDING");
  });

  it("rejects with a reason that the requester sees", async () => {
    const sent = await developer.post("/api/portal/contact", { topic: "OTHER", name: "Dev", email: "developer@example.com", message: "Hello" });
    const { id } = await sent.json();
    expect((await admin.post(`/api/portal/admin/requests/${id}/reject`, { reason: "" })).status).toBe(400);
    expect((await admin.post(`/api/portal/admin/requests/${id}/reject`, { reason: "Out of scope" })).status).toBe(200);
    const mine = await (await developer.get("/api/portal/requests")).json();
    expect(mine.items.find((item: { id: string }) => item.id === id)).toMatchObject({ status: "REJECTED", decisionReason: "Out of scope" });
  });

  it("throttles repeated messages from one sender, whatever X-Forwarded-For it invents", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const response = await fetch(`${server.url}/api/portal/contact`, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": `203.0.113.${attempt}` },
        body: JSON.stringify({ topic: "OTHER", name: "Visitor", email: "visitor@example.com", message: `Message ${attempt}` }),
      });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // No proxy is trusted, so every message comes from this machine's address, which an earlier test used once.
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429, 429]);
  });
});

describe("the server log", () => {
  // The seed prints the demo passwords and secrets once at start-up, by design; nothing typed later may appear.
  it("holds no password typed at sign-in", async () => {
    const output = await server.settledOutput();
    for (const password of [OTHER_PASSWORD, "the-right-password"]) expect(output).not.toContain(password);
  });
});
