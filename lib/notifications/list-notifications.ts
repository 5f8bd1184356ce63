import "server-only";
import type { Db } from "../db";
import { type Cursor, decodeCursor, encodeCursor } from "./cursor";
import { type NotificationOwner, ownerWhere } from "./owner";
import type { StoredNotification } from "./representation";
import { DEFAULT_PAGE_SIZE, type ListNotificationsQuery } from "./schemas";

export type NotificationPage = { items: StoredNotification[]; nextCursor: string | null };

function after(cursor: Cursor) {
  return { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] };
}

/**
 * Newest first, ties broken by id, paged by keyset: a cursor names the last
 * item seen, so items inserted meanwhile (newer than any page) never shift a
 * later page. One query on the (environmentId, clientId, createdAt, id) index;
 * one extra row tells whether there is a next page.
 */
export async function listNotifications({
  db,
  query,
  ...owner
}: NotificationOwner & { db: Db; query: ListNotificationsQuery }): Promise<NotificationPage> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await db.notification.findMany({
    where: {
      ...ownerWhere(owner),
      ...(query.status ? { status: { in: query.status } } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(query.severity ? { severity: query.severity } : {}),
      ...(query.since ? { createdAt: { gte: query.since } } : {}),
      ...(cursor ? after(cursor) : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
