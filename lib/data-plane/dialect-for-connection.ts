import "server-only";
import type { DriverConnection } from "./connection";
import type { Dialect } from "./dialect";
import { postgresDialect } from "./dialect-postgres";
import { sqliteDialect } from "./dialect-sqlite";

/** The stores' adapter to the connection's dialect. */
export function dialectOf(connection: DriverConnection): Dialect {
  return connection.dialect === "sqlite" ? sqliteDialect(connection) : postgresDialect(connection);
}
