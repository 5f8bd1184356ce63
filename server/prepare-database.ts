import { config } from "../lib/config";
import { db } from "../lib/db";
import { log } from "../lib/log";
import { type SeedReport, seed } from "../prisma/seed";
import { applyMigrations } from "../scripts/db/migrations";
import { withDatabase } from "./start-up";

/**
 * Applies pending migrations and seeds an empty database, as every entry does before it
 * serves. What was seeded is returned, to be printed once the server listens.
 */
export async function prepareDatabase(): Promise<SeedReport> {
  return withDatabase(config().databaseUrl, async () => {
    const applied = await applyMigrations(config().databaseUrl);
    if (applied.length > 0) log.info({ migrations: applied }, "applied migrations");
    return (await db().environment.count()) === 0 ? seed(db(), config()) : [];
  });
}
