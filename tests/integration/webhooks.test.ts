// Webhooks end to end in one process: a real receiver on 127.0.0.1 checks each delivery with the
// `standardwebhooks` package, an implementation of the specification independent of ours.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { actorOf } from "../../lib/audit/portal-actor";
import { SYSTEM_ACTOR } from "../../lib/audit/write-audit";
import type { PortalUser } from "../../lib/actors/portal-user";
import { config } from "../../lib/config";
import { createCredential, ensureApplication, rotateSecret } from "../../lib/credentials/credentials";
import { migratedDatabase } from "../../lib/database/migrated-database";
import type { Db, TeamRole } from "../../lib/db";
import { deliverDue } from "../../lib/events/delivery-worker";
import { ProblemError } from "../../lib/http/problem";
import { newId } from "../../lib/ids";
import type { OutboundPolicy } from "../../lib/outbound/outbound-request";
import { createTeam } from "../../lib/teams/teams";
import { replayWebhookDelivery, webhookDeliveries } from "../../lib/webhooks/deliveries";
import { createWebhookEndpoint, listWebhookEndpoints, rotateWebhookSecret, updateWebhookEndpoint } from "../../lib/webhooks/endpoints";
import { webhookChannel } from "../../lib/webhooks/webhook-channel";
import { seed } from "../../prisma/seed";
import { runAdmin } from "../support/admin-cli";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/** What OUTBOUND_ALLOW_PRIVATE=1 allows: the receiver listens on loopback, over http. */
const LOCAL: OutboundPolicy = { allowPrivate: true };

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
let receiver: WebhookReceiver;

async function user(email: string): Promise<PortalUser> {
  const row = await db.user.create({ data: { id: newId("usr"), email, name: email.split("@")[0] ?? email, role: "DEVELOPER", passwordHash: "unused" } });
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}

/** A team owned by a new user, with one application, and an endpoint at the receiver for `events`. */
async function teamWithEndpoint(name: string, events: string[] = ["credential.created", "credential.rotated"]) {
  const owner = await user(`${name}-owner@example.test`);
  const team = await createTeam({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, input: { name } });
  const application = await ensureApplication({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, teamId: team.id, name: `${name} app` });
  const created = await createWebhookEndpoint({ db, actor: actorOf(owner), input: { teamId: team.id, url: receiver.url, events }, policy: LOCAL });
  return { owner, team, application, endpoint: created.endpoint, secret: created.secret };
}

async function member(teamId: string, email: string, role: TeamRole) {
  const joined = await user(email);
  await db.teamMember.create({ data: { teamId, userId: joined.id, role } });
  return joined;
}

function deliver(policy: OutboundPolicy = LOCAL) {
  return deliverDue({ db, owner: "test-worker", channels: [webhookChannel({ db, authSecret: config().authSecret, policy })] });
}

/** Makes the endpoint's pending deliveries due now, instead of at their backoff time. */
async function dueNow(endpointId: string) {
  await db.eventDelivery.updateMany({ where: { address: endpointId, status: "pending" }, data: { nextAttemptAt: new Date(0) } });
}

function verified(secret: string, index = receiver.received.length - 1) {
  const request = receiver.received[index]!;
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
}

async function rejectedWith(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await database?.close();
});

beforeEach(() => {
  receiver.received.length = 0;
});

describe("signed deliveries", () => {
  it("POSTs a team's event with webhook-id, webhook-timestamp and a webhook-signature the standardwebhooks package verifies", async () => {
    const { application, endpoint, secret } = await teamWithEndpoint("signers");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(JSON.stringify(stored)).not.toContain(secret.slice("whsec_".length));

    const { credential } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    const event = await db.outboxEvent.findFirstOrThrow({
      where: { clientId: credential.clientId, type: "credential.created" },
      include: { deliveries: true },
    });
    expect(event.deliveries.filter((delivery) => delivery.channel === "webhook")).toMatchObject([{ address: endpoint.id, status: "pending" }]);

    expect(await deliver()).toMatchObject({ delivered: 1, retried: 0, failed: 0 });
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["webhook-id"]).toBe(event.id);
    expect(verified(secret)).toEqual({ type: "credential.created", timestamp: event.occurredAt.toISOString(), data: event.payload });
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(request.body, request.headers as Record<string, string>)).toThrow();

    const [logged] = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: endpoint.id });
    expect(logged).toMatchObject({ type: "credential.created", status: "delivered", attempts: [{ statusCode: 200, error: null }] });
  });

  it("sends nothing for an event type the endpoint did not choose, nor to another team's endpoint", async () => {
    const { application, endpoint } = await teamWithEndpoint("choosers", ["credential.revoked"]);
    const other = await teamWithEndpoint("others");
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    expect(await db.eventDelivery.count({ where: { address: { in: [endpoint.id, other.endpoint.id] } } })).toBe(0);
  });

  it("signs with both secrets while a rotation overlaps, and with the new one alone once the overlap ends", async () => {
    const { owner, application, endpoint, secret: first } = await teamWithEndpoint("rotators");
    const { credential } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    const rotated = await rotateWebhookSecret({ db, actor: actorOf(owner), endpointId: endpoint.id });
    expect(rotated.secret).not.toBe(first);
    expect(rotated.endpoint.previousSecretValidUntil).not.toBeNull();

    await deliver();
    expect(receiver.received.at(-1)!.headers["webhook-signature"]!.toString().split(" ")).toHaveLength(2);
    expect(verified(rotated.secret)).toMatchObject({ type: "credential.created" });
    expect(verified(first)).toMatchObject({ type: "credential.created" });

    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    await rotateSecret({ db, actor: SYSTEM_ACTOR, clientId: credential.clientId, graceSeconds: 0 });
    await deliver();
    expect(verified(rotated.secret)).toMatchObject({ type: "credential.rotated" });
    expect(() => verified(first)).toThrow();
  });
});

describe("retries, timeouts and replay", () => {
  it("retries a 500 with the same webhook-id and logs both attempts", async () => {
    const { application, endpoint, secret } = await teamWithEndpoint("retriers");
    receiver.answer(500);
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    expect(await deliver()).toMatchObject({ retried: 1 });
    await dueNow(endpoint.id);
    expect(await deliver()).toMatchObject({ delivered: 1 });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(receiver.received[1]!.headers["webhook-id"]);
    expect(verified(secret, 1)).toMatchObject({ type: "credential.created" });
    const [logged] = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: endpoint.id });
    expect(logged).toMatchObject({ status: "delivered", attempts: [{ statusCode: 500, error: "answered 500" }, { statusCode: 200 }] });
  });

  it("gives up an attempt at the timeout and retries it later", async () => {
    const { application, endpoint } = await teamWithEndpoint("sleepers");
    receiver.answer("hang");
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    expect(await deliver({ ...LOCAL, timeoutMs: 300 })).toMatchObject({ retried: 1 });
    const [logged] = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: endpoint.id });
    expect(logged).toMatchObject({ status: "pending", attempts: [{ statusCode: null, error: expect.stringMatching(/timeout|aborted/i) }] });
    expect(logged!.nextAttemptAt).not.toBeNull();
  });

  it("fails an attempt whose answer is larger than the cap, 2xx or not", async () => {
    const { application, endpoint } = await teamWithEndpoint("talkers");
    receiver.answer("large");
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    expect(await deliver()).toMatchObject({ retried: 1 });
    const [logged] = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: endpoint.id });
    expect(logged!.attempts).toMatchObject([{ statusCode: null, error: expect.stringContaining("answered more than 16384 bytes") }]);
  });

  it("disables an endpoint that answers 410 Gone and fails the delivery", async () => {
    const { application, endpoint } = await teamWithEndpoint("leavers");
    receiver.answer(410);
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    expect(await deliver()).toMatchObject({ failed: 1 });
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      enabled: false,
      disabledReason: "the endpoint answered 410 Gone",
    });
  });

  it("replays a delivery as a new delivery of the same event", async () => {
    const { owner, application, endpoint, secret } = await teamWithEndpoint("replayers");
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    await deliver();
    const [original] = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: endpoint.id });
    const replay = await replayWebhookDelivery({ db, actor: actorOf(owner), endpointId: endpoint.id, deliveryId: original!.id });
    expect(replay).toMatchObject({ eventId: original!.eventId, status: "pending", attempts: [] });
    expect(replay.id).not.toBe(original!.id);
    expect(await deliver()).toMatchObject({ delivered: 1 });
    expect(receiver.received.map((request) => request.headers["webhook-id"])).toEqual([original!.eventId, original!.eventId]);
    expect(verified(secret)).toMatchObject({ type: "credential.created" });
    const log = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: endpoint.id });
    expect(log.map((delivery) => delivery.status)).toEqual(["delivered", "delivered"]);
  });
});

describe("outbound policy", () => {
  it("refuses at creation a URL whose host resolves to loopback, unless private targets are allowed", async () => {
    const owner = await user("ssrf-owner@example.test");
    const team = await createTeam({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, input: { name: "ssrf" } });
    for (const url of [`https://localhost:${receiver.port}/hook`, `http://localhost:${receiver.port}/hook`]) {
      const refused = await rejectedWith(createWebhookEndpoint({ db, actor: actorOf(owner), input: { teamId: team.id, url, events: ["credential.created"] } }));
      expect(refused).toMatchObject({ code: "validation-failed", errors: [{ in: "body", field: "url" }] });
    }
    const loopback = await rejectedWith(
      createWebhookEndpoint({ db, actor: actorOf(owner), input: { teamId: team.id, url: `https://localhost/hook`, events: ["credential.created"] } }),
    );
    expect(loopback.errors?.[0]?.message).toMatch(/resolves to (127\.0\.0\.1|::1), which is not a public address/);
    expect(await db.webhookEndpoint.count({ where: { teamId: team.id } })).toBe(0);
  });

  it("checks the address again at each delivery, so a name that comes to resolve to 127.0.0.1 is refused", async () => {
    const owner = await user("rebind-owner@example.test");
    const team = await createTeam({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, input: { name: "rebinders" } });
    const application = await ensureApplication({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, teamId: team.id, name: "rebinding app" });
    const publicAnswer: OutboundPolicy = { allowPrivate: false, resolve: async () => [{ address: "93.184.215.14", family: 4 }] };
    const { endpoint } = await createWebhookEndpoint({
      db,
      actor: actorOf(owner),
      input: { teamId: team.id, url: `https://hooks.rebind.test:${receiver.port}/hook`, events: ["credential.created"] },
      policy: publicAnswer,
    });
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    expect(await deliver({ allowPrivate: false, resolve: async () => [{ address: "127.0.0.1", family: 4 }] })).toMatchObject({ retried: 1 });
    expect(receiver.received).toHaveLength(0);
    const [logged] = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: endpoint.id });
    expect(logged!.attempts).toMatchObject([{ statusCode: null, error: expect.stringContaining("resolves to 127.0.0.1, which is not a public address") }]);
  });
});

describe("team roles", () => {
  it("lets a member read but not change the team's webhooks, and shows an outsider nothing", async () => {
    const { team, endpoint } = await teamWithEndpoint("readers");
    const reader = await member(team.id, "reader@example.test", "member");
    const admin = await member(team.id, "team-admin@example.test", "admin");
    const outsider = await user("outsider@example.test");
    const input = { teamId: team.id, url: receiver.url, events: ["credential.created"] };

    expect(await listWebhookEndpoints({ db, actor: actorOf(reader), teamId: team.id })).toMatchObject([{ id: endpoint.id }]);
    expect(await webhookDeliveries({ db, actor: actorOf(reader), endpointId: endpoint.id })).toEqual([]);
    // Each attempt starts when the one before has settled: started together, a later refusal
    // would reject before anything awaits it, an unhandled rejection.
    for (const attempt of [
      () => createWebhookEndpoint({ db, actor: actorOf(reader), input, policy: LOCAL }),
      () => rotateWebhookSecret({ db, actor: actorOf(reader), endpointId: endpoint.id }),
      () => updateWebhookEndpoint({ db, actor: actorOf(reader), endpointId: endpoint.id, input: { enabled: false } }),
    ]) {
      expect(await rejectedWith(attempt())).toMatchObject({ code: "team-role-required", status: 403 });
    }
    for (const attempt of [
      () => listWebhookEndpoints({ db, actor: actorOf(outsider), teamId: team.id }),
      () => createWebhookEndpoint({ db, actor: actorOf(outsider), input, policy: LOCAL }),
      () => rotateWebhookSecret({ db, actor: actorOf(outsider), endpointId: endpoint.id }),
      () => webhookDeliveries({ db, actor: actorOf(outsider), endpointId: endpoint.id }),
    ]) {
      expect(await rejectedWith(attempt())).toMatchObject({ code: "not-found", status: 404 });
    }
    expect(await rotateWebhookSecret({ db, actor: actorOf(admin), endpointId: endpoint.id })).toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
    const audit = await db.auditEvent.findMany({ where: { targetId: endpoint.id }, orderBy: { at: "asc" } });
    expect(audit.map((entry) => [entry.action, entry.actorLabel])).toEqual([
      ["webhook.create", "readers-owner@example.test"],
      ["webhook.secret.rotate", "team-admin@example.test"],
    ]);
  });
});

describe("admin CLI", () => {
  it("creates an endpoint, printing its secret once, and lists its deliveries", { timeout: 120_000 }, async () => {
    const owner = await user("cli-hooks@example.test");
    const team = await createTeam({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, input: { name: "cli-hooks" } });
    const created = await runAdmin(
      database.database.url,
      "webhook",
      "create",
      "--team",
      "cli-hooks",
      "--url",
      "https://93.184.215.14/gatehouse",
      "--events",
      "credential.created,credential.revoked",
      "--json",
    );
    expect(created.code).toBe(0);
    const endpoint = JSON.parse(created.stdout) as { id: string; secret: string; events: string[]; url: string };
    expect(endpoint).toMatchObject({ url: "https://93.184.215.14/gatehouse", events: ["credential.created", "credential.revoked"] });
    expect(endpoint.secret).toMatch(/^whsec_/);

    const application = await ensureApplication({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, teamId: team.id, name: "cli app" });
    const { credential } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    const deliveries = await runAdmin(database.database.url, "webhook", "deliveries", "--id", endpoint.id, "--json");
    expect(deliveries.code).toBe(0);
    const event = await db.outboxEvent.findFirstOrThrow({ where: { clientId: credential.clientId, type: "credential.created" } });
    expect(JSON.parse(deliveries.stdout)).toMatchObject({
      endpoint: endpoint.id,
      deliveries: [{ eventId: event.id, type: "credential.created", status: "pending", attempts: [] }],
    });
    expect(deliveries.stdout).not.toContain(endpoint.secret);

    const refused = await runAdmin(
      database.database.url,
      "webhook",
      "create",
      "--team",
      "cli-hooks",
      "--url",
      "http://localhost/hook",
      "--events",
      "credential.created",
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--url");
  });
});
