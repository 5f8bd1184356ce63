import "server-only";
import type { NotificationOwner, NotificationStore } from "../data-plane/notifications";
import { type NotificationPage, pageFilter, pageOf } from "./list-notifications";
import { ownerWhere } from "./owner";
import { pageKey } from "./page-key";
import { toResource } from "./representation";
import type { ListNotificationsQuery } from "./schemas";

/** A page as the API answers it: the JSON body, encoded, and the cursor its `Link` header names. */
export type ServedPage = { body: Uint8Array<ArrayBuffer>; nextCursor: string | null };

const utf8 = new TextEncoder();

/**
 * A page kept with the id and version of each row it was built from, and the owner's
 * count of changes read before those rows were (so never newer than they are).
 */
type KeptPage = ServedPage & { rows: readonly (readonly [id: string, version: number])[]; changes: number };

/** Whether `stored`, the ids and versions of the page and the row after it, are the ones `kept` was built from. */
function unchanged(kept: KeptPage, stored: readonly (readonly [string, number])[], limit: number): boolean {
  if (stored.length > limit !== (kept.nextCursor !== null) || Math.min(stored.length, limit) !== kept.rows.length) return false;
  return kept.rows.every(([id, version], index) => stored[index]![0] === id && stored[index]![1] === version);
}

/** A page as the API answers it. */
function encoded(page: NotificationPage): ServedPage {
  return {
    // Encoded once: off the V8 heap, and a kept page is written without encoding it again for every answer.
    body: utf8.encode(JSON.stringify({ items: page.items.map(toResource), nextCursor: page.nextCursor })) as Uint8Array<ArrayBuffer>,
    nextCursor: page.nextCursor,
  };
}

/** Answers a list request with its page. */
export type PageServer = (input: NotificationOwner & { store: NotificationStore; query: ListNotificationsQuery }) => Promise<ServedPage>;

/**
 * First pages (no cursor) as answered, each kept with the ids and versions of the rows
 * it was built from and the owner's count of changes, read with them in one statement
 * on PostgreSQL and before them on SQLite (`findPageWithChanges`): a page not kept costs
 * one round trip, as without the cache. A kept
 * page is served only when nothing of the owner's has changed since, or, when
 * something has, when the index still holds exactly its rows at their versions
 * (`findPageVersions`: about a third of a page's read on SQLite; on PostgreSQL it
 * visits the table for rows changed since the last vacuum, as the read does, yet
 * still costs less than reading and serializing the page again). Every change to a
 * notification bumps its version and its owner's count, both by trigger, so each
 * instance answers what was last stored, as without the cache (decision 007, "Kept list pages").
 * What it saves is reading and serializing the rows. A page after a cursor is read
 * while a client pages through and seldom again before it would be evicted, so it is
 * read alone and not kept: kept, such pages were about half of what the gateway's thread
 * promoted to its old generation (decision 040). At most `maxEntries` pages are kept,
 * the least recently served leaving first.
 */
export function createPageCache(maxEntries = 500): PageServer {
  const pages = new Map<string, KeptPage>();

  return async ({ store, query, ...owner }) => {
    const filter = pageFilter(query);
    const where = ownerWhere(owner);
    if (query.cursor !== undefined) return encoded(pageOf(await store.findPage(where, filter), filter));
    const limit = filter.limit - 1;
    const key = pageKey(owner, query);
    const kept = pages.get(key);
    if (kept) {
      // Read first: a count read before the rows can only be older than them, which costs a check, never a stale page.
      const changes = await store.countChanges(where);
      if (kept.changes === changes || unchanged(kept, await store.findPageVersions(where, filter), limit)) {
        kept.changes = changes;
        pages.delete(key);
        pages.set(key, kept);
        return kept;
      }
    }
    const { rows, changes } = await store.findPageWithChanges(where, filter);
    const page = pageOf(rows, filter);
    const served = encoded(page);
    pages.delete(key);
    // An empty page read from PostgreSQL comes without the count, so it is not kept.
    if (changes === undefined) return served;
    if (pages.size >= maxEntries) pages.delete(pages.keys().next().value!);
    pages.set(key, { ...served, rows: page.items.map((item) => [item.id, item.version] as const), changes });
    return served;
  };
}
