import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { applyMigrations } from "../../lib/database/migrations";
import { createDb, type Db } from "../../lib/db";
import { runAdminProcess } from "../support/admin-cli";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";

// What the database holds however many callers race: each CLI run is its own process with
// its own connection, as when operators or scripts run the admin CLI at the same time.

const RACERS = 20;
/** How the CLI reports under --json a failure it did not cause, such as a lock it waited for too long: one JSON line with the reason and the database. */
const ONE_LINE_REASON = /^\{"error":"[^\n]+","database":"[^\n]+"\}$/;

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
  return Promise.all(Array.from({ length: RACERS }, () => runAdminProcess(database.url, ...args)));
}

describe("credentials created and rotated concurrently", { timeout: 180_000 }, () => {
  it(`${RACERS} creations of one application's credential make one application and one active credential`, async () => {
    const runs = await inParallel(["credential", "create", "--app", "Raced", "--env", "sso-qa", "--json"]);
    const created = runs.filter((run) => run.code === 0);
    expect(created).toHaveLength(1);
    const { clientId } = JSON.parse(created[0]!.stdout) as { clientId: string };
    // The losers are told which credential won; on a loaded machine one may instead give up
    // waiting for the lock (see the rotations below).
    for (const refused of runs.filter((run) => run.code !== 0)) {
      expect(refused.stderr.includes(`already has the credential ${clientId} in sso-qa`) || ONE_LINE_REASON.test(refused.stderr.trim())).toBe(true);
    }
    const applications = await db.application.findMany({ where: { name: "Raced" } });
    expect(applications).toHaveLength(1);
    const active = await db.credential.findMany({ where: { applicationId: applications[0]!.id, status: "ACTIVE" } });
    expect(active.map((credential) => credential.clientId)).toEqual([clientId]);
  });

  it(`${RACERS} rotations with an overlap leave at most two live secrets, the newest among them`, async () => {
    const credential = await db.credential.findFirstOrThrow({ where: { application: { name: "Raced" }, status: "ACTIVE" } });
    const runs = await inParallel(["credential", "rotate", credential.clientId, "--overlap", "1h", "--json"]);
    // On a loaded machine a rotation may wait for the lock longer than the database lets it
    // (SQLite's busy timeout): it then fails with the database's reason in one line and
    // changes nothing, which the count of audit events below shows.
    const succeeded = runs.filter((run) => run.code === 0);
    for (const failed of runs.filter((run) => run.code !== 0)) expect(failed.stderr.trim()).toMatch(ONE_LINE_REASON);
    expect(succeeded.length).toBeGreaterThan(0);
    const now = new Date();
    const live = await db.credentialSecret.findMany({
      where: { credentialId: credential.id, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      orderBy: { createdAt: "desc" },
    });
    expect(live.length).toBeGreaterThanOrEqual(1);
    expect(live.length).toBeLessThanOrEqual(2);
    const issued = succeeded.map((run) => (JSON.parse(run.stdout) as { clientSecret: string }).clientSecret);
    expect(new Set(issued).size).toBe(succeeded.length);
    expect(issued.map((secret) => secret.slice(-4))).toContain(live[0]!.hint.slice(-4));
    expect(await db.auditEvent.count({ where: { targetId: credential.clientId, action: "credential.secret.rotate" } })).toBe(succeeded.length);
  });

  it("refuses an overlap that is not a duration, naming the flag", async () => {
    const credential = await db.credential.findFirstOrThrow({ where: { application: { name: "Raced" }, status: "ACTIVE" } });
    const run = await runAdminProcess(database.url, "credential", "rotate", credential.clientId, "--overlap", "soon");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--overlap");
    const tooLong = await runAdminProcess(database.url, "credential", "rotate", credential.clientId, "--overlap", "2d");
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr).toContain("--overlap");
  });
});
