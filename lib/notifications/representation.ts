import type { NotificationResource } from "./schemas";

/**
 * A notification as the store reads it: the resource's fields, times already as the
 * API shows them (ISO 8601 in UTC, formatted by the database), and the version
 * its ETag names.
 */
export type StoredNotification = NotificationResource & { version: number };

export function toResource(row: StoredNotification): NotificationResource {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    category: row.category,
    severity: row.severity,
    status: row.status,
    link: row.link,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    readAt: row.readAt,
  };
}
