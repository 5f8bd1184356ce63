import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { applyMigrations, schemaScript } from "./migrations";

/**
 * The schema engine cannot replay migrations into a shadow database through
 * driver adapters, so drift is found the plain way: build one database from the
 * committed migrations and one from the schema, and compare their catalogs.
 */

const SQLITE_CATALOG = `
  SELECT m.name AS tbl, 'column' AS kind, c.name AS name, c.type || ' notnull=' || c."notnull" || ' default=' || coalesce(c.dflt_value, '') || ' pk=' || c.pk AS def
    FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table'
  UNION ALL
  SELECT m.name, 'index', i.name, 'unique=' || i."unique" || ' on ' || (SELECT group_concat(x.name || (CASE x."desc" WHEN 1 THEN ' desc' ELSE '' END), ',') FROM pragma_index_xinfo(i.name) x WHERE x.key = 1)
    FROM sqlite_master m, pragma_index_list(m.name) i WHERE m.type = 'table'
  UNION ALL
  SELECT m.name, 'foreign key', f."from", f."table" || '.' || f."to" || ' on delete ' || f.on_delete || ' on update ' || f.on_update
    FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'`;

const POSTGRES_CATALOG = `
  SELECT table_name AS tbl, 'column' AS kind, column_name AS name,
         udt_name || ' nullable=' || is_nullable || ' default=' || coalesce(column_default, '') AS def
    FROM information_schema.columns WHERE table_schema = 'public'
  UNION ALL
  SELECT tablename, 'index', indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL
  SELECT conrelid::regclass::text, 'constraint', conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL
  SELECT t.typname, 'enum', t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`;

type CatalogRow = { tbl: string; kind: string; name: string; def: string };

function catalogLines(rows: CatalogRow[]): Set<string> {
  return new Set(
    rows
      .filter((row) => !row.tbl.replaceAll('"', "").startsWith("_prisma_migrations") && row.tbl !== "sqlite_sequence")
      .map((row) => `${row.tbl} ${row.kind} ${row.name}: ${row.def}`),
  );
}

function difference(fromMigrations: Set<string>, fromSchema: Set<string>): string[] {
  return [
    ...[...fromSchema].filter((line) => !fromMigrations.has(line)).map((line) => `missing from migrations: ${line}`),
    ...[...fromMigrations].filter((line) => !fromSchema.has(line)).map((line) => `not in schema.prisma: ${line}`),
  ].sort();
}

async function sqliteDrift(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-drift-"));
  try {
    const migrated = join(dir, "migrated.db");
    await applyMigrations(`file:${migrated}`);
    const fromSchema = new Database(join(dir, "schema.db"));
    fromSchema.exec(await schemaScript("sqlite"));
    const viaMigrations = new Database(migrated);
    const result = difference(
      catalogLines(viaMigrations.prepare(SQLITE_CATALOG).all() as CatalogRow[]),
      catalogLines(fromSchema.prepare(SQLITE_CATALOG).all() as CatalogRow[]),
    );
    viaMigrations.close();
    fromSchema.close();
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withPostgresDatabase<T>(serverUrl: string, use: (url: string, client: pg.Client) => Promise<T>): Promise<T> {
  const name = `gatehouse_drift_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    return await use(url.toString(), client);
  } finally {
    await client.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

async function postgresDrift(serverUrl: string): Promise<string[]> {
  const viaMigrations = await withPostgresDatabase(serverUrl, async (url, client) => {
    await applyMigrations(url);
    return catalogLines((await client.query<CatalogRow>(POSTGRES_CATALOG)).rows);
  });
  const fromSchema = await withPostgresDatabase(serverUrl, async (_url, client) => {
    await client.query(await schemaScript("postgresql"));
    return catalogLines((await client.query<CatalogRow>(POSTGRES_CATALOG)).rows);
  });
  return difference(viaMigrations, fromSchema);
}

/** Lines that differ between a database migrated from history and one made from the schema; empty when in sync. */
export function schemaDrift(dialect: "sqlite"): Promise<string[]>;
export function schemaDrift(dialect: "postgresql", serverUrl: string): Promise<string[]>;
export function schemaDrift(dialect: "sqlite" | "postgresql", serverUrl?: string): Promise<string[]> {
  return dialect === "sqlite" ? sqliteDrift() : postgresDrift(serverUrl!);
}
