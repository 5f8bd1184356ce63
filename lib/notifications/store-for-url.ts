import "server-only";
import { sqlitePath } from "../config";
import type { NotificationStore, QueryListener } from "./store";
import { createPostgresNotificationStore } from "./store-postgres";
import { createSqliteNotificationStore } from "./store-sqlite";

/** The notification store for `DATABASE_URL`'s dialect. */
export function createNotificationStore(databaseUrl: string, onQuery?: QueryListener): NotificationStore {
  return databaseUrl.startsWith("file:") ? createSqliteNotificationStore(sqlitePath(databaseUrl), onQuery) : createPostgresNotificationStore(databaseUrl, onQuery);
}
