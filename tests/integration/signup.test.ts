// SIGNUP=approval (the default): new accounts wait for an admin; sign-up never tells which addresses have accounts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { verifyPassword } from "../../lib/accounts/passwords";
import { startServer, TEST_ADMIN_PASSWORD, type TestServer } from "../support/server";
import { openDb } from "./gateway-support";
import { type PortalClient, signedIn, signInError, signIn } from "./portal-session";

let server: TestServer;
let db: Db;
let admin: PortalClient;

beforeAll(async () => {
  // The test claims a client address per case, as a trusted proxy in front of the server would.
  server = await startServer({ env: { TRUSTED_PROXIES: "127.0.0.1, ::1" } });
  db = openDb(server);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

function signUp(body: unknown, address = "198.51.100.1") {
  return fetch(`${server.url}/api/portal/signup`, {
    method: "POST",
    headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify(body),
  });
}

describe("sign-up with admin approval", () => {
  it("names each invalid field, holding the password to 12 characters", async () => {
    const response = await signUp({ email: "nope", name: "", password: "only-eleven" });
    expect(response.status).toBe(400);
    expect(((await response.json()).errors as { field: string }[]).map((error) => error.field).sort()).toEqual(["email", "name", "password"]);
  });

  it("answers a known address exactly like a new one and changes nothing for it", async () => {
    const fresh = await signUp({ email: "New.Dev@example.com", name: "New Dev", password: "a-long-password-1" }, "198.51.100.2");
    expect(fresh.status).toBe(202);
    const freshBody = await fresh.json();
    const again = await signUp({ email: "new.dev@example.com", name: "Someone Else", password: "another-password-2" }, "198.51.100.2");
    const seeded = await signUp({ email: "admin@example.com", name: "Intruder", password: "another-password-2" }, "198.51.100.2");
    for (const response of [again, seeded]) {
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual(freshBody);
    }
    const user = await db.user.findUniqueOrThrow({ where: { email: "new.dev@example.com" } });
    expect(user.name).toBe("New Dev");
    expect(await verifyPassword("a-long-password-1", user.passwordHash!)).toBe(true);
    expect(await signIn(server, "admin@example.com", "another-password-2")).toBeNull();
  });

  it("keeps a new account out until an admin approves it in the request queue, audited", async () => {
    await signUp({ email: "waiting@example.com", name: "Waiting Dev", password: "waiting-password-1" }, "198.51.100.3");
    // Only the right password learns that the account waits; a wrong one gets the answer an unknown address gets.
    expect(await signInError(server, "waiting@example.com", "waiting-password-1")).toBe("AwaitingApproval");
    expect(await signInError(server, "waiting@example.com", "not-the-password")).toBe("CredentialsSignin");
    const request = await db.accessRequest.findFirstOrThrow({ where: { email: "waiting@example.com", topic: "ACCOUNT", status: "PENDING" } });
    const queue = await admin.get("/admin/requests");
    expect(await queue.text()).toContain("waiting@example.com");
    const approved = await admin.post(`/api/portal/admin/requests/${request.id}/approve`, {});
    expect(approved.status).toBe(200);
    await signedIn(server, "waiting@example.com", "waiting-password-1");
    expect(await db.auditEvent.count({ where: { action: "user.signup.approve", targetId: request.id } })).toBe(1);
  });

  it("tells an account an admin disabled after approving it no more than a wrong password would", async () => {
    await signUp({ email: "disabled@example.com", name: "Disabled Dev", password: "disabled-password-1" }, "198.51.100.5");
    const request = await db.accessRequest.findFirstOrThrow({ where: { email: "disabled@example.com", topic: "ACCOUNT" } });
    expect((await admin.post(`/api/portal/admin/requests/${request.id}/approve`, {})).status).toBe(200);
    await db.user.update({ where: { email: "disabled@example.com" }, data: { disabledAt: new Date() } });
    expect(await signInError(server, "disabled@example.com", "disabled-password-1")).toBe("CredentialsSignin");
  });

  it("deletes a rejected account, so the address can sign up again", async () => {
    await signUp({ email: "rejected@example.com", name: "Rejected Dev", password: "rejected-password-1" }, "198.51.100.4");
    const request = await db.accessRequest.findFirstOrThrow({ where: { email: "rejected@example.com", topic: "ACCOUNT" } });
    const rejected = await admin.post(`/api/portal/admin/requests/${request.id}/reject`, { reason: "Unknown company" });
    expect(rejected.status).toBe(200);
    expect(await db.user.findUnique({ where: { email: "rejected@example.com" } })).toBeNull();
    expect(await db.auditEvent.count({ where: { action: "user.signup.reject", targetId: request.id } })).toBe(1);
  });

  it("is throttled per address like sign-in", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await signUp({ email: `burst-${i}@example.com`, name: "Burst", password: "burst-password-1" }, "198.51.100.99")).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    const refused = await signUp({ email: "burst-x@example.com", name: "Burst", password: "burst-password-1" }, "198.51.100.99");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(statuses[10]).toBe(429);
  });

  it("links sign-in to sign-up", async () => {
    const login = await fetch(`${server.url}/login`);
    expect(await login.text()).toMatch(/href="\/signup"/);
    expect((await fetch(`${server.url}/signup`)).status).toBe(200);
  });
});
