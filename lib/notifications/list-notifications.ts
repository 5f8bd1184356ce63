import "server-only";
import type { Db } from "../db";
import { type Cursor, decodeCursor, encodeCursor } from "./cursor";
import { type NotificationOwner, ownerWhere } from "./owner";
import type { StoredNotification } from "./representation";
import { DEFAULT_PAGE_SIZE, type ListNotificationsQuery } from "./schemas";

export type NotificationPage = { items: StoredNotification[]; nextCursor: string | null };

/**
 * Paging after the cursor is written as a range on createdAt (`<= cursor`,
 * which also starts the index scan there) minus the cursor's own tie group
 * up to its id. The textbook `a < x OR (a = x AND b < y)` makes SQLite merge
 * two index scans and sort them.
 */
function tiesUpToCursor(cursor: Cursor) {
  return { createdAt: cursor.createdAt, id: { gte: cursor.id } };
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
      ...(query.since || cursor ? { createdAt: { ...(query.since ? { gte: query.since } : {}), ...(cursor ? { lte: cursor.createdAt } : {}) } } : {}),
      ...(cursor ? { NOT: tiesUpToCursor(cursor) } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
