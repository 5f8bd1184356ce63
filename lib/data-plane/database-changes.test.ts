import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { CLI_ACTOR } from "../audit/write-audit";
import { createCredential, ensureApplication } from "../credentials/credentials";
import { migratedDatabase } from "../database/migrated-database";
import { type DriverConnection, openDriver } from "./connection";
import { watchDatabaseChanges } from "./database-changes";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;
let connection: DriverConnection;
let watch: { stop(): Promise<void> };
let changes = 0;
let versionReads = 0;

beforeAll(async () => {
  fixture = await migratedDatabase();
  await seed(fixture.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  connection = openDriver(fixture.database.url, { onQuery: (sql) => void (sql === "PRAGMA data_version" && versionReads++) });
  watch = watchDatabaseChanges({
    connection,
    databaseUrl: fixture.database.url,
    onChange: () => void changes++,
    log: pino({ level: "silent" }),
  });
});

afterAll(async () => {
  await watch?.stop();
  await connection?.close();
  await fixture?.close();
});

/** An environment's rate limit set again by Prisma, on a connection of its own: a change the gateway keeps. */
async function changeRateLimit(burst: number): Promise<void> {
  await fixture.db.environment.update({ where: { slug: "sso-qa" }, data: { rateLimitBurst: burst } });
}

describe("watching the database for changes to what the gateway keeps", () => {
  it("tells once it watches, as what was kept before may be older than what it hears of", async () => {
    await expect.poll(() => changes, { timeout: 10_000 }).toBe(1);
  });

  it("tells of a change another connection committed", async () => {
    const before = changes;
    await changeRateLimit(100);
    await expect.poll(() => changes, { timeout: 5_000 }).toBeGreaterThan(before);
  });

  it("does not tell of a commit to a table the gateway does not keep", async () => {
    if (connection.dialect !== "sqlite") return;
    const before = changes;
    await fixture.db.auditEvent.create({ data: { id: `aud_${Date.now()}`, actorLabel: "cli", action: "test.write", targetType: "test", targetId: "x" } });
    // Two more reads of data_version: the watch has seen the commit move it, and read the count.
    const reads = versionReads;
    await expect.poll(() => versionReads, { timeout: 5_000 }).toBeGreaterThan(reads + 1);
    expect(changes).toBe(before);
    await changeRateLimit(101);
    await expect.poll(() => changes, { timeout: 5_000 }).toBe(before + 1);
  });

  it("does not count the gateway's marks of last use, which change nothing it keeps", async () => {
    const application = await ensureApplication({ db: fixture.db, actor: CLI_ACTOR, ownerId: null, name: "Marked" });
    const { credential } = await createCredential({ db: fixture.db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa" });
    const secretIds = (await fixture.db.credentialSecret.findMany({ where: { credentialId: credential.id } })).map((secret) => secret.id);
    await expect.poll(() => changes, { timeout: 5_000 }).toBeGreaterThan(0);
    if (connection.dialect === "sqlite") {
      const counted = () => fixture.db.gatewayChanges.findUniqueOrThrow({ where: { id: 1 } }).then((row) => row.changes);
      const before = await counted();
      await fixture.store.markUsed({ credentialIds: [credential.id], secretIds, now: new Date() });
      expect(await counted()).toBe(before);
      return;
    }
    // PostgreSQL sends notifications in the order of the commits: had the marks notified, a third would come before the second change's.
    const before = changes;
    await fixture.store.markUsed({ credentialIds: [credential.id], secretIds, now: new Date() });
    await changeRateLimit(102);
    await expect.poll(() => changes, { timeout: 5_000 }).toBeGreaterThan(before);
    await changeRateLimit(103);
    await expect.poll(() => changes, { timeout: 5_000 }).toBeGreaterThanOrEqual(before + 2);
    expect(changes).toBe(before + 2);
  });

  it("on PostgreSQL, listens again after its connection is ended, and tells so that everything is read again", async () => {
    if (connection.dialect !== "postgresql") return;
    const before = changes;
    await fixture.db.$executeRawUnsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN gatehouse_changes'`);
    await expect.poll(() => changes, { timeout: 10_000 }).toBe(before + 1);
    await changeRateLimit(104);
    await expect.poll(() => changes, { timeout: 5_000 }).toBe(before + 2);
  });
});
