import "server-only";
import type { DriverConnection } from "../driver/connection";
import type { NotificationStore } from "./store";
import { createPostgresNotificationStore } from "./store-postgres";
import { createSqliteNotificationStore } from "./store-sqlite";

/** The notification store on the connection's dialect. */
export function createNotificationStore(connection: DriverConnection): NotificationStore {
  return connection.dialect === "sqlite" ? createSqliteNotificationStore(connection) : createPostgresNotificationStore(connection);
}
