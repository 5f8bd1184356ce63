import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccessToken } from "../../lib/access-tokens/access-tokens";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { migratedDatabase } from "../../lib/database/migrated-database";
import { newId } from "../../lib/ids";
import { createTeam } from "../../lib/teams/teams";
import { inviteMember } from "../../lib/teams/invitations";
import { createWebhookEndpoint } from "../../lib/webhooks/endpoints";
import { seed } from "../../prisma/seed";
import { runAdminProcess } from "../support/admin-cli";

// The text an operator reads: every list the CLI prints, with its columns, and no nested value printed as "[object Object]".

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let endpointId: string;

beforeAll(async () => {
  database = await migratedDatabase();
  const { db } = database;
  await seed(db, { seedDemo: true, seedAdminPassword: "admin-password-for-tests", seedDeveloperPassword: "developer-password-for-tests" });
  const owner = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
  const team = await createTeam({ db, actor: CLI_ACTOR, ownerId: owner.id, input: { name: "Billing" } });
  await inviteMember({ db, actor: CLI_ACTOR, teamId: team.id, input: { email: "new@example.com", role: "admin" } });
  const { endpoint } = await createWebhookEndpoint({
    db,
    actor: CLI_ACTOR,
    input: { teamId: team.id, url: "https://93.184.215.14/hooks", events: ["credential.created"] },
    policy: { allowPrivate: false, resolve: async () => [{ address: "93.184.215.14", family: 4 }] },
  });
  endpointId = endpoint.id;
  const event = await db.outboxEvent.create({ data: { id: newId("evt"), type: "credential.created", payload: {} } });
  const delivery = await db.eventDelivery.create({ data: { id: newId("dlv"), eventId: event.id, channel: "webhook", address: endpointId, status: "failed" } });
  await db.webhookAttempt.createMany({
    data: [
      { id: newId("wat"), deliveryId: delivery.id, statusCode: 503, durationMs: 12, error: "HTTP 503" },
      { id: newId("wat"), deliveryId: delivery.id, statusCode: 418, durationMs: 7 },
    ],
  });
  await db.accessRequest.create({
    data: { id: newId("req"), topic: "CREDENTIALS", name: "Ann", email: "ann@example.com", message: "Please", applicationName: "Ann's App" },
  });
  await createAccessToken({ db, actor: CLI_ACTOR, owner, input: { name: "ci", scopes: ["credentials:read"], expiresInDays: 30 } });
}, 120_000);

afterAll(async () => {
  await database?.close();
});

const LISTS: { args: string[]; columns: string[]; shows?: RegExp[] }[] = [
  { args: ["api", "list"], columns: ["slug", "name", "version", "kind", "public", "environments", "versions"], shows: [/notifications .*v1/] },
  { args: ["credential", "list"], columns: ["clientId", "env", "application", "status", "apis", "scopes", "lastUsedAt"] },
  { args: ["environment", "list"], columns: ["slug", "name", "credentialType", "selfService", "tokenLifetimeSeconds", "rateLimit"] },
  { args: ["request", "list"], columns: ["id", "status", "topic", "email", "env", "api", "application", "createdAt"], shows: [/ann@example\.com/] },
  { args: ["team", "list"], columns: ["id", "name", "personal", "members", "applications"], shows: [/Billing .*developer@example\.com/] },
  { args: ["team", "invitations", "--team", "Billing"], columns: ["id", "email", "role", "expiresAt", "createdAt"], shows: [/new@example\.com/] },
  { args: ["user", "list"], columns: ["id", "email", "name", "role", "disabled", "createdAt"], shows: [/admin@example\.com/] },
  { args: ["token", "list", "--user", "developer@example.com"], columns: ["id", "name", "hint", "scopes"], shows: [/ci .*credentials:read/] },
  { args: ["webhook", "list", "--team", "Billing"], columns: ["id", "url", "events"], shows: [/https:\/\/93\.184\.215\.14\/hooks/] },
];

describe("the admin CLI's lists, as text", () => {
  it.each(LISTS)("$args.0 $args.1 prints a table with its columns and no [object Object]", { timeout: 60_000 }, async ({ args, columns, shows = [] }) => {
    const { code, stdout } = await runAdminProcess(database.database.url, ...args);
    expect(code).toBe(0);
    expect(stdout).not.toContain("[object Object]");
    const header = stdout.split("\n").find((line) => columns.every((column) => line.includes(column)));
    expect(header, stdout).toBeDefined();
    for (const shown of shows) expect(stdout).toMatch(shown);
  });

  it("api list names each version with its status", { timeout: 60_000 }, async () => {
    const { stdout } = await runAdminProcess(database.database.url, "api", "list");
    expect(stdout).toMatch(/version=v1 status=current/);
  });

  it("team list names each member with their role", { timeout: 60_000 }, async () => {
    const { stdout } = await runAdminProcess(database.database.url, "team", "list");
    expect(stdout).toMatch(/Billing .*email=developer@example\.com role=owner/);
  });

  it("webhook deliveries shows each attempt's status code", { timeout: 60_000 }, async () => {
    const { code, stdout } = await runAdminProcess(database.database.url, "webhook", "deliveries", "--id", endpointId);
    expect(code).toBe(0);
    expect(stdout).not.toContain("[object Object]");
    expect(stdout).toMatch(/id +eventId +type +occurredAt +status +attempts/);
    expect(stdout).toMatch(/statusCode=503 .*statusCode=418/);
  });
});
