import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { SYSTEM_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { migratedDatabase } from "../../lib/database/migrated-database";
import { newId } from "../../lib/ids";
import { seed } from "../../prisma/seed";

vi.hoisted(() => {
  delete process.env.SMTP_URL;
});

let database: Awaited<ReturnType<typeof migratedDatabase>>;

beforeAll(async () => {
  database = await migratedDatabase();
  await seed(database.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
});

afterAll(async () => {
  await database?.close();
});

it("without SMTP_URL records events but creates no email delivery", async () => {
  const { db } = database;
  const owner = await db.user.create({ data: { id: newId("usr"), email: "quiet@example.test", name: "Quiet", role: "DEVELOPER" } });
  const application = await ensureApplication({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, name: "Quiet app" });
  const { credential } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
  expect(await db.outboxEvent.findMany({ where: { clientId: credential.clientId }, select: { type: true, userId: true } })).toEqual([
    { type: "credential.created", userId: owner.id },
  ]);
  expect(await db.eventDelivery.count()).toBe(0);
});
