import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { applyMigrations } from "../../lib/database/migrations";
import { createDb, type Db } from "../../lib/db";
import { runAdmin } from "../support/admin-cli";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";

// What the database holds however many callers race: each CLI run is its own process with
// its own connection, as when operators or scripts run the admin CLI at the same time.

const RACERS = 20;

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  await applyMigrations(database.url);
  db = createDb(database.url);
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

function inParallel(args: string[]) {
  return Promise.all(Array.from({ length: RACERS }, () => runAdmin(database.url, ...args)));
}

describe("credentials created and rotated concurrently", { timeout: 180_000 }, () => {
  it(`${RACERS} creations of one application's credential make one application and one active credential`, async () => {
    const runs = await inParallel(["credential", "create", "--app", "Raced", "--env", "sso-qa", "--json"]);
    const created = runs.filter((run) => run.code === 0);
    expect(created).toHaveLength(1);
    const { clientId } = JSON.parse(created[0]!.stdout) as { clientId: string };
    for (const refused of runs.filter((run) => run.code !== 0)) {
      expect(refused.stderr).toContain(`already has the credential ${clientId} in sso-qa`);
    }
    const applications = await db.application.findMany({ where: { name: "Raced" } });
    expect(applications).toHaveLength(1);
    const active = await db.credential.findMany({ where: { applicationId: applications[0]!.id, status: "ACTIVE" } });
    expect(active.map((credential) => credential.clientId)).toEqual([clientId]);
  });

  it(`${RACERS} rotations with an overlap leave at most two live secrets, the newest among them`, async () => {
    const credential = await db.credential.findFirstOrThrow({ where: { application: { name: "Raced" }, status: "ACTIVE" } });
    const runs = await inParallel(["credential", "rotate", credential.clientId, "--overlap", "1h", "--json"]);
    expect(runs.map((run) => run.code)).toEqual(Array(RACERS).fill(0));
    const now = new Date();
    const live = await db.credentialSecret.findMany({
      where: { credentialId: credential.id, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      orderBy: { createdAt: "desc" },
    });
    expect(live.length).toBeGreaterThanOrEqual(1);
    expect(live.length).toBeLessThanOrEqual(2);
    const issued = runs.map((run) => (JSON.parse(run.stdout) as { clientSecret: string }).clientSecret);
    expect(new Set(issued).size).toBe(RACERS);
    expect(issued.map((secret) => secret.slice(-4))).toContain(live[0]!.hint.slice(-4));
    expect(await db.auditEvent.count({ where: { targetId: credential.clientId, action: "credential.secret.rotate" } })).toBe(RACERS);
  });

  it("refuses an overlap that is not a duration, naming the flag", async () => {
    const credential = await db.credential.findFirstOrThrow({ where: { application: { name: "Raced" }, status: "ACTIVE" } });
    const run = await runAdmin(database.url, "credential", "rotate", credential.clientId, "--overlap", "soon");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--overlap");
    const tooLong = await runAdmin(database.url, "credential", "rotate", credential.clientId, "--overlap", "2d");
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr).toContain("--overlap");
  });
});
