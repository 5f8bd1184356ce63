import pg from "pg";
import { config } from "../lib/config";
import { db } from "../lib/db";
import { log } from "../lib/log";
import { seed } from "../prisma/seed";
import type { SeedReport } from "../prisma/seed-report";
import { applyMigrations } from "../lib/database/migrations";
import { withDatabase } from "./start-up";

/** One key for every Gatehouse instance on a PostgreSQL database: "gatehouse" read as a number. */
const STARTUP_LOCK_KEY = 0x6761_7465;

/**
 * Instances started together on one PostgreSQL database take turns: the first
 * migrates and seeds, the others wait on an advisory lock and then find
 * nothing left to do. The lock belongs to a session of its own and ends with
 * it, so an instance that dies while holding it cannot block the rest.
 */
async function withStartupLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) return work();
  const session = new pg.Client({ connectionString: databaseUrl });
  await session.connect();
  try {
    await session.query("SELECT pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
    return await work();
  } finally {
    await session.end();
  }
}

/**
 * Applies pending migrations and seeds an empty database, once across instances
 * starting together, as every entry does before it serves. What was seeded is
 * returned, to be printed once the server listens.
 */
export async function prepareDatabase(): Promise<SeedReport> {
  const { databaseUrl } = config();
  return withDatabase(databaseUrl, () =>
    withStartupLock(databaseUrl, async () => {
      const applied = await applyMigrations(databaseUrl);
      if (applied.length > 0) log.info({ migrations: applied }, "applied migrations");
      return (await db().environment.count()) === 0 ? seed(db(), config()) : [];
    }),
  );
}
