import type { StoredNotification } from "../data-plane/notifications";
import type { NotificationResource } from "./schemas";

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
