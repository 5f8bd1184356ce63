import type { Notification } from "../generated/prisma/sqlite/client";
import type { NotificationResource } from "./schemas";

export type StoredNotification = Notification;

export function toResource(row: StoredNotification): NotificationResource {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    category: row.category,
    severity: row.severity,
    status: row.status,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
  };
}
