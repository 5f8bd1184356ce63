import { createHash } from "node:crypto";
import { copyFileSync, existsSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { sqlitePath } from "../database-url";
import { applyMigrations, readMigrations } from "./migrations";
import type { Dialect } from "./schema";
import { createPostgresDatabase, createSqliteDatabase, POSTGRES_SERVER_URL, retriedWhileInUse, type TestDatabase } from "./test-databases";

// A test database that starts migrated is a copy of a template migrated once per set of
// migrations, rather than migrated anew for each test (docs/decisions/070). The template is
// named by a hash of the migrations' folder names and SQL: a changed or added migration makes
// another one.

function migrationsHash(dialect: Dialect): string {
  const hash = createHash("sha256");
  for (const directory of readMigrations(dialect).migrationDirectories) {
    const content = directory.migrationFile.content;
    hash.update(`${directory.path}\0${content.tag === "ok" ? content.value : ""}\0`);
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The SQLite template's file, migrated and switched to the write-ahead log as a server's
 * first start leaves a new file. A process that finds none migrates a file of its own and
 * renames it into place, which is atomic: every process reads a whole template.
 */
async function sqliteTemplate(): Promise<string> {
  const template = join(tmpdir(), `gatehouse-migrated-${migrationsHash("sqlite")}.db`);
  if (existsSync(template)) return template;
  const building = createSqliteDatabase();
  await applyMigrations(building.url);
  renameSync(sqlitePath(building.url), template);
  await building.drop();
  return template;
}

/** The PostgreSQL template database on `serverUrl`, migrated under a name of its own and renamed, as the SQLite file is. */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `gatehouse_migrated_${migrationsHash("postgresql")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if ((await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount) return name;
    const building = await createPostgresDatabase(serverUrl);
    await applyMigrations(building.url);
    try {
      await retriedWhileInUse(() => admin.query(`ALTER DATABASE "${new URL(building.url).pathname.slice(1)}" RENAME TO "${name}"`));
    } catch (error) {
      // Another process made the template meanwhile: 42P04, or 23505 when both renames ran at once.
      const code = (error as { code?: string }).code;
      if (code !== "42P04" && code !== "23505") throw error;
      await building.drop();
    }
    return name;
  } finally {
    await admin.end();
  }
}

let template: Promise<string> | undefined;

/** A fresh database of the dialect under test with every migration applied and no rows. */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const serverUrl = POSTGRES_SERVER_URL;
  if (serverUrl) {
    template ??= postgresTemplate(serverUrl);
    return createPostgresDatabase(serverUrl, await template);
  }
  template ??= sqliteTemplate();
  const copied = await template;
  const database = createSqliteDatabase();
  copyFileSync(copied, sqlitePath(database.url));
  return database;
}
