import { applyMigrations } from "../../lib/database/migrations";
import { createDb, type Db } from "../../lib/db";
import { createTestDatabase, type TestDatabase } from "./databases";

/** A migrated, empty database of the dialect under test, with a Prisma client on it. */
export async function migratedDatabase(): Promise<{ db: Db; database: TestDatabase; close(): Promise<void> }> {
  const database = await createTestDatabase();
  await applyMigrations(database.url);
  const db = createDb(database.url);
  return {
    db,
    database,
    async close() {
      await db.$disconnect();
      await database.drop();
    },
  };
}
