import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

// Databases made for one test, or one run of a tool, and dropped after it. In lib/ because
// scripts/explain-notifications.ts and the unit tests beside lib's modules use them too.

/** Set by `npm run test:postgres`: the server in which each test creates its own database. */
export const POSTGRES_SERVER_URL = process.env.TEST_POSTGRES_URL;

export type TestDatabase = { url: string; drop(): Promise<void> };

/**
 * PostgreSQL refuses to copy or rename a database while another session is connected to it,
 * as the one that migrated it can be for a moment after it closed (code 55006): `run` again.
 */
export async function retriedWhileInUse<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A new database on `serverUrl`: empty, or a copy of the database `template` names. */
export async function createPostgresDatabase(serverUrl: string, template?: string): Promise<TestDatabase> {
  const name = `gatehouse_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await retriedWhileInUse(() => admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`));
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export function createSqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-test-"));
  return {
    url: `file:${join(dir, "gatehouse.db")}`,
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database of the dialect under test. */
export function createTestDatabase(): Promise<TestDatabase> {
  return POSTGRES_SERVER_URL ? createPostgresDatabase(POSTGRES_SERVER_URL) : Promise.resolve(createSqliteDatabase());
}
