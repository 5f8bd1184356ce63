import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalUser } from "../actors/portal-user";
import type { Db } from "../db";
import { newId } from "../ids";
import { migratedDatabase } from "../database/migrated-database";
import { seed } from "../../prisma/seed";
import { approveAccessRequest } from "./decide-access-request";

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
let admin: PortalUser;

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await seed(db, { seedDemo: true, seedAdminPassword: "admin-password", seedDeveloperPassword: "developer-password" });
  const row = await db.user.findFirstOrThrow({ where: { role: "ADMIN" } });
  admin = { id: row.id, email: row.email, name: row.name, role: row.role } as PortalUser;
});

afterAll(async () => {
  await database?.close();
});

/** A signed-in developer's request for API access in an environment that needs approval. */
async function apiAccessRequest(input: { email: string; applicationName: string; envSlug: string }) {
  const requester = await db.user.create({ data: { id: newId("usr"), email: input.email, name: "Requester", role: "DEVELOPER", passwordHash: "unused" } });
  const [api, environment] = await Promise.all([
    db.api.findUniqueOrThrow({ where: { slug: "notifications" } }),
    db.environment.findUniqueOrThrow({ where: { slug: input.envSlug } }),
  ]);
  const request = await db.accessRequest.create({
    data: {
      id: newId("req"),
      topic: "API_ACCESS",
      requesterId: requester.id,
      name: "Requester",
      email: input.email,
      apiId: api.id,
      environmentId: environment.id,
      credentialType: environment.credentialType,
      applicationName: input.applicationName,
      message: "Please",
    },
  });
  return { requester, api, environment, request };
}

/** What an approval can leave behind: every row it writes, counted. */
async function footprint() {
  const [applications, credentials, grants, notifications, auditEvents] = await Promise.all([
    db.application.count(),
    db.credential.count(),
    db.grant.count(),
    db.notification.count(),
    db.auditEvent.count(),
  ]);
  return { applications, credentials, grants, notifications, auditEvents };
}

describe("approving an access request", () => {
  it("stores nothing when a later step fails: the claim and the requester's new application roll back with it", async () => {
    const { api, environment, request } = await apiAccessRequest({ email: "atomic@example.com", applicationName: "Atomic App", envSlug: "sso-prod" });
    // Since the request was sent the API stopped being offered there, so no credential there can be granted its scopes:
    // the approval claims the request and creates the application before that step fails.
    await db.apiEnvironment.delete({ where: { apiId_environmentId: { apiId: api.id, environmentId: environment.id } } });
    const before = await footprint();

    await expect(approveAccessRequest({ db, admin, id: request.id })).rejects.toMatchObject({ code: "validation-failed" });

    expect(await footprint()).toEqual(before);
    expect(await db.application.findFirst({ where: { name: "Atomic App" } })).toBeNull();
    expect(await db.accessRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      status: "PENDING",
      decidedById: null,
      decidedAt: null,
      credentialId: null,
    });
  });

  it("keeps the approval when only its notice cannot be written", async () => {
    const { environment, request } = await apiAccessRequest({ email: "unnoticed@example.com", applicationName: "Unnoticed App", envSlug: "platform-prod" });
    // A notice's title names the environment, and a 300-character name makes it longer than a title may be.
    await db.environment.update({ where: { id: environment.id }, data: { name: `Platform Production ${"x".repeat(280)}` } });
    const before = await footprint();

    const approved = await approveAccessRequest({ db, admin, id: request.id });

    expect(approved).toMatchObject({ status: "APPROVED", clientId: expect.stringMatching(/^gci_/) });
    expect(await footprint()).toMatchObject({
      applications: before.applications + 1,
      credentials: before.credentials + 1,
      notifications: before.notifications,
    });
    expect(await db.accessRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "APPROVED", decidedById: admin.id });
  });
});
