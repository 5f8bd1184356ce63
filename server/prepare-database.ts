import { config } from "../lib/config";
import { db } from "../lib/db";
import { log } from "../lib/log";
import { seed } from "../prisma/seed";
import type { SeedReport } from "../prisma/seed-report";
import { applyMigrations } from "../lib/database/migrations";
import { withStartupLock } from "../lib/database/startup-lock";
import { withDatabase } from "./start-up";

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
