import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { SQLITE_JOURNAL_MODE } from "../data-plane/sqlite-pragmas";

/**
 * Whether every migration in `names` is already applied to the SQLite file. Read
 * with SQLite's driver, so that a start with nothing to migrate never opens Prisma's
 * schema engine, whose `locking_mode=EXCLUSIVE` a WAL database refuses while another
 * instance has it open (docs/decisions/006).
 */
export function sqliteMigrationsApplied(path: string, names: readonly string[]): boolean {
  if (!existsSync(path)) return false;
  const database = new Database(path, { readonly: true, timeout: 10_000 });
  try {
    const table = database.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
    if (!table) return false;
    const applied = new Set(
      database.prepare(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`).pluck().all() as string[],
    );
    return names.every((name) => applied.has(name));
  } finally {
    database.close();
  }
}

/**
 * Switches the file to the write-ahead log; the mode stays with the file. A file
 * that another instance holds busy in the rollback journal is left as it is, and
 * the next start switches it.
 */
export function useSqliteJournalMode(path: string): void {
  const database = new Database(path, { timeout: 2_000 });
  try {
    database.pragma(`journal_mode = ${SQLITE_JOURNAL_MODE}`);
  } catch (error) {
    if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
  } finally {
    database.close();
  }
}
