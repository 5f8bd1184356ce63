import "server-only";
import type { DriverConnection } from "./connection";
import type { NotificationStore } from "./notifications";
import { createPostgresNotificationStore } from "./notifications-postgres";
import { createSqliteNotificationStore } from "./notifications-sqlite";

/** The notification store on the connection's dialect. */
export function createNotificationStore(connection: DriverConnection): NotificationStore {
  return connection.dialect === "sqlite" ? createSqliteNotificationStore(connection) : createPostgresNotificationStore(connection);
}
