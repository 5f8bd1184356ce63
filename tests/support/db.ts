import { applyMigrations } from "../../lib/database/migrations";
import { createDataPlaneStore } from "../../lib/data-plane/store-for-connection";
import type { DataPlaneStore } from "../../lib/data-plane/store";
import { createDb, type Db } from "../../lib/db";
import { openDriver } from "../../lib/driver/connection";
import { createTestDatabase, type TestDatabase } from "./databases";

/** A migrated, empty database of the dialect under test, with a Prisma client and the gateway's data-plane store on it. */
export async function migratedDatabase(): Promise<{ db: Db; store: DataPlaneStore; database: TestDatabase; close(): Promise<void> }> {
  const database = await createTestDatabase();
  await applyMigrations(database.url);
  const db = createDb(database.url);
  const connection = openDriver(database.url);
  return {
    db,
    store: createDataPlaneStore(connection),
    database,
    async close() {
      await Promise.all([db.$disconnect(), connection.close()]);
      await database.drop();
    },
  };
}
