import { openDriver } from "../data-plane/connection";
import { createDataPlaneStore } from "../data-plane/store-for-connection";
import type { DataPlaneStore } from "../data-plane/store";
import { createDb, type Db } from "../db";
import { createMigratedTestDatabase } from "./migrated-template";
import type { TestDatabase } from "./test-databases";

/**
 * A migrated, empty database of the dialect under test, with a Prisma client and the gateway's data-plane store on it.
 * In lib/ because the unit tests beside lib's and prisma's modules need it, and they import nothing from tests/.
 */
export async function migratedDatabase(): Promise<{ db: Db; store: DataPlaneStore; database: TestDatabase; close(): Promise<void> }> {
  const database = await createMigratedTestDatabase();
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
