import { config } from "../lib/config";
import { db } from "../lib/db";
import { log } from "../lib/log";
import { printSeedReport, seed } from "../prisma/seed";
import { applyMigrations } from "../scripts/db/migrations";

/** Applies pending migrations and seeds an empty database, as every entry does before it serves. */
export async function prepareDatabase(): Promise<void> {
  const applied = await applyMigrations(config().databaseUrl);
  if (applied.length > 0) log.info({ migrations: applied }, "applied migrations");
  if ((await db().environment.count()) === 0) printSeedReport(await seed(db(), config()));
}
