import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { applyMigrations } from "../../lib/database/migrations";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";
import { createDb, type Db } from "../../lib/db";

// A notification's version is its ETag and what kept list pages are checked against, so the
// database bumps it on every change, in the same transaction, whoever the writer is.

let database: TestDatabase;
let db: Db;
let environmentId: string;
const clientId = "gci_versioned0000000000000000";

beforeAll(async () => {
  database = await createTestDatabase();
  await applyMigrations(database.url);
  db = createDb(database.url);
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  environmentId = (await db.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } })).id;
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function stored(id: string) {
  const [notification, changes] = await Promise.all([
    db.notification.findUniqueOrThrow({ where: { id }, select: { version: true, status: true } }),
    db.notificationChanges.findUnique({ where: { environmentId_clientId: { environmentId, clientId } } }),
  ]);
  return { ...notification, changes: changes?.changes ?? 0 };
}

describe("a notification's version", () => {
  it("moves by one with each change, whether or not the writer set it", async () => {
    const id = `ntf_version_${Date.now()}`;
    await db.notification.create({ data: { id, environmentId, clientId, title: "Versioned", body: "", category: "system", severity: "info" } });
    const created = await stored(id);
    expect(created.version).toBe(1);

    await db.notification.update({ where: { id }, data: { status: "read" } });
    const forgotten = await stored(id);
    expect(forgotten).toMatchObject({ version: 2, status: "read" });
    expect(forgotten.changes).toBeGreaterThan(created.changes);

    await db.$executeRawUnsafe(`UPDATE "Notification" SET "status" = 'archived', "version" = "version" + 1 WHERE "id" = '${id}'`);
    const bumped = await stored(id);
    expect(bumped).toMatchObject({ version: 3, status: "archived" });
    expect(bumped.changes).toBeGreaterThan(forgotten.changes);
  });
});
