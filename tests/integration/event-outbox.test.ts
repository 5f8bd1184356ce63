import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { submitContact } from "../../lib/access-requests/contact";
import { approveAccessRequest, rejectAccessRequest } from "../../lib/access-requests/decide-access-request";
import { signUp } from "../../lib/accounts/signup";
import { SYSTEM_ACTOR } from "../../lib/audit/write-audit";
import type { PortalUser } from "../../lib/actors/portal-user";
import { createCredential, ensureApplication, revokeCredential, rotateSecret } from "../../lib/credentials/credentials";
import { sendSecretExpiryNotices } from "../../lib/credentials/secret-expiry";
import { migratedDatabase } from "../../lib/database/migrated-database";
import type { Db } from "../../lib/db";
import { deliverDue } from "../../lib/events/delivery-worker";
import { emailChannel } from "../../lib/events/email-channel";
import { emailPreferences, updateEmailPreferences } from "../../lib/events/preferences";
import { ProblemError } from "../../lib/http/problem";
import { newId } from "../../lib/ids";
import { deprecate } from "../../lib/api-lifecycle/versions";
import { findInvitation, inviteMember } from "../../lib/teams/invitations";
import { createTeam } from "../../lib/teams/teams";
import { seed } from "../../prisma/seed";
import { runAdmin } from "../support/admin-cli";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink";

// Email is on for this file: config() is read after these are set. The worker below sends to the
// sink's own port; SMTP_URL only has to be present for email deliveries to be recorded.
vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:2525";
  process.env.MAIL_FROM = "Portal <portal@example.test>";
  process.env.PUBLIC_URL = "https://portal.example.test";
});

const PUBLIC_URL = "https://portal.example.test";
let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
let sink: SmtpSink;
let admin: PortalUser;

async function user(email: string, role: "ADMIN" | "DEVELOPER" = "DEVELOPER"): Promise<PortalUser> {
  const row = await db.user.create({ data: { id: newId("usr"), email, name: email.split("@")[0] ?? email, role, passwordHash: "unused" } });
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}

async function eventsOf(type: string) {
  return db.outboxEvent.findMany({ where: { type }, include: { deliveries: true }, orderBy: { occurredAt: "asc" } });
}

/** One pass of the delivery worker against the sink. */
function deliver() {
  return deliverDue({
    db,
    owner: "test-worker",
    channels: [emailChannel({ smtpUrl: sink.url, from: "Portal <portal@example.test>", publicUrl: PUBLIC_URL, portalName: "Portal" })],
  });
}

async function developerWithApplication(email: string) {
  const owner = await user(email);
  const application = await ensureApplication({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, name: `App of ${owner.name}` });
  return { owner, application };
}

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  admin = await user("admin@example.test", "ADMIN");
  sink = await startSmtpSink();
});

afterAll(async () => {
  await sink?.close();
  await database?.close();
});

beforeEach(() => {
  sink.received.length = 0;
  sink.refuse(null);
});

describe("credential events", () => {
  it("records created, rotated and revoked in the transaction of each change, with one email delivery to the owner", async () => {
    const { owner, application } = await developerWithApplication("cred-owner@example.test");
    const { credential, secret } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    const rotated = await rotateSecret({ db, actor: SYSTEM_ACTOR, clientId: credential.clientId, graceSeconds: 0 });
    await revokeCredential({ db, actor: SYSTEM_ACTOR, clientId: credential.clientId });

    const events = await db.outboxEvent.findMany({ where: { clientId: credential.clientId }, include: { deliveries: true }, orderBy: { occurredAt: "asc" } });
    expect(events.map((event) => event.type)).toEqual(["credential.created", "credential.rotated", "credential.revoked"]);
    expect(events[1]?.payload).toEqual({
      clientId: credential.clientId,
      application: application.name,
      environment: "platform-dev",
      ownerId: owner.id,
      hint: rotated.hint,
      previousSecretValidUntil: null,
    });
    for (const event of events) {
      expect(event.userId).toBe(owner.id);
      expect(event.deliveries).toMatchObject([{ channel: "email", address: owner.email, userId: owner.id, status: "pending", attempts: 0 }]);
      expect(JSON.stringify(event.payload)).not.toContain(secret!.clientSecret);
      expect(JSON.stringify(event.payload)).not.toContain(rotated.clientSecret);
    }

    const pass = await deliver();
    expect(pass).toMatchObject({ delivered: 3, retried: 0, failed: 0 });
    const rotationMail = sink.received.find((mail) => mail.event === "credential.rotated");
    expect(rotationMail).toMatchObject({ to: [owner.email], from: "portal@example.test", subject: `Secret of ${credential.clientId} rotated` });
    expect(rotationMail?.text).toContain(`ending in ${rotated.hint}`);
    expect(rotationMail?.text).toContain(`${PUBLIC_URL}/settings/credentials`);
    expect(rotationMail?.html).toContain(`<a href="${PUBLIC_URL}/settings/credentials">Open Client Credentials</a>`);
    for (const mail of sink.received) {
      expect(mail.text + mail.html).not.toContain(rotated.clientSecret);
      expect(mail.text + mail.html).not.toContain(secret!.clientSecret);
    }
    const delivered = await db.eventDelivery.findMany({ where: { eventId: { in: events.map((event) => event.id) } } });
    expect(delivered.every((row) => row.status === "delivered" && row.attempts === 1 && row.deliveredAt && !row.leaseOwner)).toBe(true);
    expect(new Set(sink.received.map((mail) => mail.messageId))).toEqual(new Set(delivered.map((row) => `<${row.id}@gatehouse>`)));
  });

  it("leaves no event behind when the change is rolled back", async () => {
    const { application } = await developerWithApplication("rollback@example.test");
    const { credential } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    const failed = await db
      .$transaction(async (tx) => {
        await revokeCredential({ db: tx, actor: SYSTEM_ACTOR, clientId: credential.clientId });
        throw new Error("the caller's next step failed");
      })
      .catch((error: Error) => error.message);
    expect(failed).toBe("the caller's next step failed");
    expect(await db.outboxEvent.count({ where: { clientId: credential.clientId, type: "credential.revoked" } })).toBe(0);
    expect(await db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId } })).toMatchObject({ status: "ACTIVE" });
  });

  it("records the event of a change made with the admin CLI too", async () => {
    const { owner, application } = await developerWithApplication("cli-owner@example.test");
    const { credential } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    const run = await runAdmin(database.database.url, "credential", "revoke", credential.clientId);
    expect(run.code).toBe(0);
    const [revoked] = await db.outboxEvent.findMany({ where: { clientId: credential.clientId, type: "credential.revoked" } });
    expect(revoked).toMatchObject({ userId: owner.id, payload: { clientId: credential.clientId, environment: "platform-dev" } });
  });

  it("records secret_expiring once per secret, at its first notice", async () => {
    const { owner, application } = await developerWithApplication("expiring@example.test");
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 3 * 24 * 3_600_000);
    const { credential, secret } = await createCredential({
      db,
      actor: SYSTEM_ACTOR,
      applicationId: application.id,
      envSlug: "platform-dev",
      secretExpiresAt: expiresAt,
    });
    await sendSecretExpiryNotices({ db, now });
    await sendSecretExpiryNotices({ db, now: new Date(expiresAt.getTime() - 3_600_000) });
    const events = await db.outboxEvent.findMany({
      where: { clientId: credential.clientId, type: "credential.secret_expiring" },
      include: { deliveries: true },
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ hint: secret!.hint, expiresAt: expiresAt.toISOString() });
    expect(events[0]?.deliveries.map((delivery) => delivery.address)).toEqual([owner.email]);
  });
});

describe("access request and sign-up events", () => {
  it("tells the admins of a submitted request, with the sender's text escaped in the HTML body, and the sender of the decision", async () => {
    const name = `Eve <script>alert("x")</script> & Co`;
    const { id } = await submitContact({
      db,
      input: { topic: "OTHER", name, email: "eve@example.test", message: "Hello" },
      requester: null,
      headers: new Headers({ "x-forwarded-for": "203.0.113.9" }),
    });
    const [submitted] = await eventsOf("access_request.submitted");
    expect(submitted?.payload).toMatchObject({ requestId: id, topic: "OTHER", name, email: "eve@example.test", requesterId: null });
    expect(submitted?.deliveries.map((delivery) => delivery.address)).toEqual([admin.email]);

    await rejectAccessRequest({ db, admin, id, input: { reason: "Not <b>now</b>" } });
    const [decided] = await eventsOf("access_request.decided");
    expect(decided?.payload).toMatchObject({ requestId: id, decision: "rejected", reason: "Not <b>now</b>", clientId: null });
    expect(decided?.deliveries.map((delivery) => delivery.address)).toEqual(["eve@example.test"]);

    await deliver();
    const toAdmin = sink.received.find((mail) => mail.event === "access_request.submitted");
    expect(toAdmin?.to).toEqual([admin.email]);
    expect(toAdmin?.text).toContain(name);
    expect(toAdmin?.html).toContain("Eve &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co");
    expect(toAdmin?.html).not.toContain("<script>");
    expect(toAdmin?.html).toContain(`href="${PUBLIC_URL}/admin/requests"`);
    const toSender = sink.received.find((mail) => mail.event === "access_request.decided");
    expect(toSender).toMatchObject({ to: ["eve@example.test"], subject: "Your access request was rejected" });
    expect(toSender?.html).toContain("Reason: Not &lt;b&gt;now&lt;/b&gt;");
    expect(toSender?.text).toContain(`${PUBLIC_URL}/settings/requests`);
  });

  it("tells the admins of a sign-up waiting for approval, and the new developer once it is approved", async () => {
    await signUp({
      db,
      input: { email: "newcomer@example.test", name: "Newcomer", password: "a-long-enough-password" },
      mode: "approval",
      headers: new Headers({ "x-forwarded-for": "203.0.113.10" }),
    });
    const [pending] = await eventsOf("signup.pending");
    const newcomer = await db.user.findUniqueOrThrow({ where: { email: "newcomer@example.test" } });
    expect(pending?.payload).toEqual({ userId: newcomer.id, email: "newcomer@example.test", name: "Newcomer" });
    expect(pending?.deliveries.map((delivery) => delivery.address)).toEqual([admin.email]);

    const request = await db.accessRequest.findFirstOrThrow({ where: { requesterId: newcomer.id, topic: "ACCOUNT" } });
    await approveAccessRequest({ db, admin, id: request.id });
    const [approved] = await eventsOf("signup.approved");
    expect(approved?.deliveries.map((delivery) => delivery.address)).toEqual(["newcomer@example.test"]);

    await deliver();
    const welcome = sink.received.find((mail) => mail.event === "signup.approved");
    expect(welcome).toMatchObject({ to: ["newcomer@example.test"], subject: "Your account was approved" });
    expect(welcome?.text).toContain(`${PUBLIC_URL}/login`);
  });
});

describe("team and API events", () => {
  it("emails an invitation whose link is the one that accepts it, and keeps only an encrypted token in the outbox", async () => {
    const owner = await user("team-owner@example.test");
    const team = await createTeam({ db, actor: { userId: owner.id, label: owner.email }, ownerId: owner.id, input: { name: "Billing" } });
    const issued = await inviteMember({
      db,
      actor: { userId: owner.id, label: owner.email },
      teamId: team.id,
      input: { email: "invitee@example.test", role: "admin" },
    });
    const [event] = await eventsOf("team.invitation");
    expect(event?.deliveries.map((delivery) => delivery.address)).toEqual(["invitee@example.test"]);
    const token = issued.link.split("/").at(-1)!;
    expect(JSON.stringify(event?.payload)).not.toContain(token);

    await deliver();
    const mail = sink.received.find((received) => received.event === "team.invitation");
    expect(mail).toMatchObject({ to: ["invitee@example.test"], subject: "Invitation to the team Billing" });
    expect(mail?.text).toContain(issued.link);
    expect(await findInvitation({ db, token })).toMatchObject({ email: "invitee@example.test", role: "admin" });
  });

  it("tells the members of teams whose credentials are granted an API when one of its operations is deprecated", async () => {
    const { owner, application } = await developerWithApplication("consumer@example.test");
    const { credential } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    const api = await db.api.findUniqueOrThrow({ where: { slug: "notifications" } });
    await db.grant.upsert({
      where: { credentialId_apiId: { credentialId: credential.id, apiId: api.id } },
      create: { credentialId: credential.id, apiId: api.id, scopes: "" },
      update: {},
    });
    const sunsetAt = new Date("2027-06-30T00:00:00Z");
    await deprecate({ db, actor: SYSTEM_ACTOR, slug: "notifications", version: "v1", operation: "GET /v1/notifications", sunsetAt });
    const [event] = await eventsOf("api.deprecated");
    expect(event?.payload).toEqual({
      api: "notifications",
      apiName: api.name,
      version: "v1",
      operation: "GET /v1/notifications",
      sunsetAt: sunsetAt.toISOString(),
    });
    expect(event?.deliveries.map((delivery) => delivery.address)).toContain(owner.email);

    await deliver();
    const mail = sink.received.find((received) => received.event === "api.deprecated" && received.to.includes(owner.email));
    expect(mail?.subject).toBe(`${api.name} v1: GET /v1/notifications is deprecated`);
    expect(mail?.text).toContain(`${PUBLIC_URL}/apis/notifications?version=v1`);
  });
});

describe("email preferences", () => {
  it("lists every type a user can turn off, all on at first, and stores the choice", async () => {
    const { owner } = await developerWithApplication("prefs-list@example.test");
    const initial = await emailPreferences({ db, userId: owner.id });
    expect(initial.every((preference) => preference.email)).toBe(true);
    expect(initial.map((preference) => preference.type)).not.toContain("team.invitation");
    expect(initial.map((preference) => preference.type)).not.toContain("signup.pending");
    const forAdmin = (await emailPreferences({ db, userId: admin.id })).map((preference) => preference.type);
    expect(forAdmin).toEqual(expect.arrayContaining(["access_request.submitted", "signup.pending", "credential.revoked"]));
    const receive = initial.map((preference) => preference.type).filter((type) => type !== "credential.revoked");
    const stored = await updateEmailPreferences({ db, userId: owner.id, input: { receive } });
    expect(stored.find((preference) => preference.type === "credential.revoked")?.email).toBe(false);
    expect(await db.user.findUniqueOrThrow({ where: { id: owner.id } })).toMatchObject({ emailMutedEvents: "credential.revoked" });
  });

  it("creates no email delivery for a type the recipient turned off; the event is still recorded", async () => {
    const { owner, application } = await developerWithApplication("muted@example.test");
    const receive = (await emailPreferences({ db, userId: owner.id })).map((preference) => preference.type).filter((type) => type !== "credential.revoked");
    await updateEmailPreferences({ db, userId: owner.id, input: { receive } });
    const { credential } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    await revokeCredential({ db, actor: SYSTEM_ACTOR, clientId: credential.clientId });
    const events = await db.outboxEvent.findMany({ where: { clientId: credential.clientId }, include: { deliveries: true }, orderBy: { occurredAt: "asc" } });
    expect(events.map((event) => [event.type, event.deliveries.length])).toEqual([
      ["credential.created", 1],
      ["credential.revoked", 0],
    ]);
  });

  it("refuses an event type that does not exist or cannot be turned off, naming the field", async () => {
    const { owner } = await developerWithApplication("prefs-bad@example.test");
    for (const receive of [["credential.exploded"], ["team.invitation"], "all"]) {
      const refused = await updateEmailPreferences({ db, userId: owner.id, input: { receive } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ProblemError);
      expect(refused).toMatchObject({ status: 400 });
      expect((refused as ProblemError).errors?.[0]?.field).toMatch(/^receive/);
    }
  });
});

describe("retries", () => {
  it("keeps a refused delivery pending with the error and a later attempt, then marks it failed once past 24 hours", async () => {
    const { application } = await developerWithApplication("retry@example.test");
    await db.eventDelivery.updateMany({ where: { status: "pending" }, data: { status: "delivered" } });
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    sink.refuse("mailbox busy, try later");
    const before = Date.now();
    expect(await deliver()).toMatchObject({ claimed: 1, retried: 1 });
    const retried = await db.eventDelivery.findFirstOrThrow({ where: { address: "retry@example.test" } });
    expect(retried).toMatchObject({ status: "pending", attempts: 1, leaseOwner: null, leaseExpiresAt: null });
    expect(retried.lastError).toContain("mailbox busy, try later");
    expect(retried.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 15_000);
    expect(await deliver()).toMatchObject({ claimed: 0 });

    // Past the retry window: the next failure is the last.
    await db.eventDelivery.update({ where: { id: retried.id }, data: { createdAt: new Date(Date.now() - 25 * 3_600_000), nextAttemptAt: new Date() } });
    expect(await deliver()).toMatchObject({ claimed: 1, failed: 1 });
    expect(await db.eventDelivery.findUniqueOrThrow({ where: { id: retried.id } })).toMatchObject({ status: "failed", attempts: 2 });
    expect(await deliver()).toMatchObject({ claimed: 0 });
    expect(sink.received).toHaveLength(0);
  });

  it("marks a delivery failed at once when the SMTP server refuses it for good (5xx)", async () => {
    const { application } = await developerWithApplication("gone@example.test");
    await db.eventDelivery.updateMany({ where: { status: "pending" }, data: { status: "delivered" } });
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    sink.refuse("no such mailbox", 550);
    expect(await deliver()).toMatchObject({ claimed: 1, failed: 1 });
    const failed = await db.eventDelivery.findFirstOrThrow({ where: { address: "gone@example.test" } });
    expect(failed).toMatchObject({ status: "failed", attempts: 1, leaseOwner: null });
    expect(failed.lastError).toContain("no such mailbox");
  });
});
