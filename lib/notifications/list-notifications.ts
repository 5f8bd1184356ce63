import "server-only";
import type { NotificationFilter, NotificationOwner, NotificationStore, StoredNotification } from "../data-plane/notifications";
import { decodeCursor, encodeCursor } from "./cursor";
import { ownerWhere } from "./owner";
import { DEFAULT_PAGE_SIZE, type ListNotificationsQuery } from "./schemas";

export type NotificationPage = { items: StoredNotification[]; nextCursor: string | null };

/** What the store reads for a page: the query's filters, from its cursor, one row past the page. */
export function pageFilter(query: ListNotificationsQuery): NotificationFilter {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  return {
    status: query.status,
    category: query.category,
    severity: query.severity,
    since: query.since,
    cursor,
    limit: (query.limit ?? DEFAULT_PAGE_SIZE) + 1,
  };
}

/**
 * Newest first, ties broken by id, paged by keyset: a cursor names the last
 * item seen, so items inserted meanwhile (newer than any page) never shift a
 * later page. One query on the (environmentId, clientId, createdAt, id) index;
 * one extra row tells whether there is a next page. Paging after the cursor is
 * a range on createdAt (`<= cursor`, which also starts the index scan there)
 * minus the cursor's own tie group up to its id: the textbook
 * `a < x OR (a = x AND b < y)` makes SQLite merge two index scans and sort them.
 */
export async function listNotifications({
  store,
  query,
  ...owner
}: NotificationOwner & { store: NotificationStore; query: ListNotificationsQuery }): Promise<NotificationPage> {
  const filter = pageFilter(query);
  return pageOf(await store.findPage(ownerWhere(owner), filter), filter);
}

/** The page of `rows`, read with `filter`: its items and, when a row follows them, the cursor after the last. */
export function pageOf(rows: StoredNotification[], filter: NotificationFilter): NotificationPage {
  const limit = filter.limit - 1;
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: new Date(last.createdAt), id: last.id }) : null };
}
