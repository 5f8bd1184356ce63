import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlitePath } from "../database-url";
import { migrationsDir } from "../database/migrations";
import { createTestDatabase, POSTGRES_SERVER_URL, type TestDatabase } from "../database/test-databases";
import { createDb, type Db } from "../db";
import { personalTeamId, UNASSIGNED_TEAM } from "./teams";

const TEAMS_MIGRATION = "20261126080000_teams";
const dialect = POSTGRES_SERVER_URL ? "postgresql" : "sqlite";

/** Runs SQL scripts in order on the test database, as plain SQL: the data step is what is under test. */
async function runScripts(url: string, scripts: string[]): Promise<void> {
  if (dialect === "sqlite") {
    const connection = new Database(sqlitePath(url));
    for (const script of scripts) connection.exec(script);
    connection.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const script of scripts) await client.query(script);
  await client.end();
}

function migrationScripts(filter: (name: string) => boolean): string[] {
  const dir = migrationsDir(dialect);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && filter(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => readFileSync(join(dir, name, "migration.sql"), "utf8"));
}

const NOW = dialect === "sqlite" ? String(Date.UTC(2026, 0, 1)) : "'2026-01-01T00:00:00Z'";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  await runScripts(
    database.url,
    migrationScripts((name) => name < TEAMS_MIGRATION),
  );
  await runScripts(database.url, [
    `INSERT INTO "User" ("id", "email", "name", "role", "createdAt", "updatedAt") VALUES
       ('usr_ann', 'ann@example.com', 'Ann', 'DEVELOPER', ${NOW}, ${NOW}),
       ('usr_bob', 'bob@example.com', 'Bob', 'DEVELOPER', ${NOW}, ${NOW}),
       ('usr_cyd', 'cyd@example.com', 'Cyd', 'DEVELOPER', ${NOW}, ${NOW})`,
    `INSERT INTO "Application" ("id", "name", "ownerId", "createdAt", "updatedAt") VALUES
       ('app_ann_1', 'Billing', 'usr_ann', ${NOW}, ${NOW}),
       ('app_ann_2', 'Reports', 'usr_ann', ${NOW}, ${NOW}),
       ('app_bob_1', 'Billing', 'usr_bob', ${NOW}, ${NOW}),
       ('app_none_1', 'Batch', NULL, ${NOW}, ${NOW})`,
  ]);
  await runScripts(
    database.url,
    migrationScripts((name) => name >= TEAMS_MIGRATION),
  );
  db = createDb(database.url);
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe(`the teams migration on ${dialect}`, () => {
  it("moves every application into its owner's personal team, and unowned ones into Unassigned", async () => {
    const applications = await db.application.findMany({ orderBy: { id: "asc" }, select: { id: true, teamId: true, ownerId: true } });
    expect(applications).toEqual([
      { id: "app_ann_1", teamId: personalTeamId("usr_ann"), ownerId: "usr_ann" },
      { id: "app_ann_2", teamId: personalTeamId("usr_ann"), ownerId: "usr_ann" },
      { id: "app_bob_1", teamId: personalTeamId("usr_bob"), ownerId: "usr_bob" },
      { id: "app_none_1", teamId: UNASSIGNED_TEAM.id, ownerId: null },
    ]);
  });

  it("makes one personal team per owner, named by email, with the owner as its owner; none for users without applications", async () => {
    const teams = await db.team.findMany({ orderBy: { id: "asc" }, include: { members: { select: { userId: true, role: true } } } });
    expect(teams.map(({ id, name, personal, members }) => ({ id, name, personal, members }))).toEqual([
      { id: personalTeamId("usr_ann"), name: "ann@example.com", personal: true, members: [{ userId: "usr_ann", role: "owner" }] },
      { id: personalTeamId("usr_bob"), name: "bob@example.com", personal: true, members: [{ userId: "usr_bob", role: "owner" }] },
      { id: UNASSIGNED_TEAM.id, name: UNASSIGNED_TEAM.name, personal: false, members: [] },
    ]);
    expect(teams[0]!.createdAt.toISOString()).toBe("2026-01-01T00:00:00.000Z");
  });

  it("keeps application names unique within a team", async () => {
    await expect(db.application.create({ data: { id: "app_ann_3", name: "Billing", teamId: personalTeamId("usr_ann") } })).rejects.toMatchObject({
      code: "P2002",
    });
  });
});
