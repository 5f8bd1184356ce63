import "server-only";
import type { DriverConnection } from "./connection";
import type { DataPlaneStore } from "./store";
import { createPostgresDataPlaneStore } from "./store-postgres";
import { createSqliteDataPlaneStore } from "./store-sqlite";

/** The data plane's store on the connection's dialect. */
export function createDataPlaneStore(connection: DriverConnection): DataPlaneStore {
  return connection.dialect === "sqlite" ? createSqliteDataPlaneStore(connection) : createPostgresDataPlaneStore(connection);
}
