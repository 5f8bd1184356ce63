// The full server with SMTP_URL: its delivery worker sends what the portal's changes record,
// and Settings → Email stores each user's choice.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../lib/db";
import { startServer, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink";
import { openDb } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

let sink: SmtpSink;
let server: TestServer;
let db: Db;
let developer: PortalClient;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer({ env: { SMTP_URL: sink.url, MAIL_FROM: "Test Portal <portal@example.test>", TRUSTED_PROXIES: "127.0.0.1, ::1" } });
  db = openDb(server);
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await sink?.close();
});

describe("email from the portal's process", () => {
  it("emails the admins a sign-up waiting for approval, with a link to the request queue", async () => {
    const response = await fetch(`${server.url}/api/portal/signup`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": "198.51.100.77" },
      body: JSON.stringify({ email: "waiting@example.test", name: "Waiting <Person>", password: "a-long-enough-password" }),
    });
    expect(response.status).toBe(202);
    const mail = await vi.waitFor(
      () => {
        const found = sink.received.find((received) => received.event === "signup.pending");
        if (!found) throw new Error("no signup.pending email yet");
        return found;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(mail).toMatchObject({ to: ["admin@example.com"], from: "portal@example.test", subject: "Sign-up waiting: waiting@example.test" });
    expect(mail.text).toContain(`${server.url}/admin/requests`);
    expect(mail.html).toContain("Waiting &lt;Person&gt;");
    const delivery = await db.eventDelivery.findFirstOrThrow({ where: { event: { type: "signup.pending" } } });
    expect(delivery).toMatchObject({ address: "admin@example.com", status: "delivered", attempts: 1 });
  });

  it("stores a user's email preferences, and refuses an unknown type or an anonymous caller", async () => {
    const saved = await developer.put("/api/portal/email-preferences", { receive: ["credential.rotated"] });
    expect(saved.status).toBe(200);
    const { preferences } = (await saved.json()) as { preferences: { type: string; email: boolean }[] };
    expect(preferences.filter((preference) => preference.email).map((preference) => preference.type)).toEqual(["credential.rotated"]);
    const user = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
    expect(user.emailMutedEvents.split(" ")).toContain("credential.revoked");

    const unknown = await developer.put("/api/portal/email-preferences", { receive: ["credential.exploded"] });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");
    expect(await unknown.json()).toMatchObject({ type: expect.stringContaining("/problems/validation-failed") });

    const anonymous = await fetch(`${server.url}/api/portal/email-preferences`, {
      method: "PUT",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ receive: [] }),
    });
    expect(anonymous.status).toBe(401);
  });
});
