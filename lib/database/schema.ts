import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../runtime/project-root";

export const DIALECTS = ["sqlite", "postgresql"] as const;
export type Dialect = (typeof DIALECTS)[number];

export const SCHEMA_PATH = join(projectRoot(), "prisma", "schema.prisma");
export const MIGRATIONS_ROOT = join(projectRoot(), "prisma", "migrations");

export function dialectOf(databaseUrl: string): Dialect {
  return databaseUrl.startsWith("file:") ? "sqlite" : "postgresql";
}

/** `prisma/schema.prisma` is written for SQLite; other dialects only swap the provider. */
export function schemaFor(dialect: Dialect, source = readFileSync(SCHEMA_PATH, "utf8")): string {
  const swapped = source.replace(/(datasource\s+db\s*\{[^}]*provider\s*=\s*)"sqlite"/, `$1"${dialect}"`);
  if (!swapped.includes(`provider = "${dialect}"`)) throw new Error(`Could not set the datasource provider to ${dialect}`);
  return swapped;
}
