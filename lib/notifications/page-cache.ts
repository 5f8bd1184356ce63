import "server-only";
import { listNotifications, pageFilter } from "./list-notifications";
import { type NotificationOwner, ownerWhere } from "./owner";
import { toResource } from "./representation";
import type { ListNotificationsQuery } from "./schemas";
import type { NotificationStore } from "./store";

/** A page as the API answers it: the JSON body, encoded, and the cursor its `Link` header names. */
export type ServedPage = { body: Uint8Array<ArrayBuffer>; nextCursor: string | null };

const utf8 = new TextEncoder();

/** The rows a page was built from, by id and version, and whether more followed them. */
function fingerprint(rows: readonly (readonly [string, number])[], more: boolean): string {
  const page = rows.map(([id, version]) => `${id}:${version}`).join(",");
  return more ? `${page},+` : page;
}

/** Answers a list request with its page. */
export type PageServer = (input: NotificationOwner & { store: NotificationStore; query: ListNotificationsQuery }) => Promise<ServedPage>;

/**
 * Pages as answered, each kept with the ids and versions of the rows it was built
 * from. A kept page is served only when the index still holds exactly those rows at
 * those versions: every request reads them again (`findPageVersions`, from the index
 * alone, about a third of a page's read), and every change to a notification bumps
 * its version, so each instance answers what was last stored, as without the cache
 * (decision 007, "Fourth round"). What it saves is reading and serializing the rows.
 * At most `maxEntries` pages are kept, the least recently served leaving first.
 */
export function createPageCache(maxEntries = 500): PageServer {
  const pages = new Map<string, ServedPage & { fingerprint: string }>();

  return async ({ store, query, ...owner }) => {
    const filter = pageFilter(query);
    const limit = filter.limit - 1;
    const key = [owner.environmentId, owner.clientId, limit, query.cursor, query.status, query.category, query.severity, query.since?.toISOString()].join("\u0000");
    const kept = pages.get(key);
    const stored = kept && (await store.findPageVersions(ownerWhere(owner), filter));
    if (kept && stored && fingerprint(stored.slice(0, limit), stored.length > limit) === kept.fingerprint) {
      pages.delete(key);
      pages.set(key, kept);
      return kept;
    }
    const page = await listNotifications({ store, query, ...owner });
    const served = {
      // Kept encoded: off the V8 heap, and written without encoding it again for every answer.
      body: utf8.encode(JSON.stringify({ items: page.items.map(toResource), nextCursor: page.nextCursor })) as Uint8Array<ArrayBuffer>,
      nextCursor: page.nextCursor,
      fingerprint: fingerprint(page.items.map((item) => [item.id, item.version] as const), page.nextCursor !== null),
    };
    pages.delete(key);
    if (pages.size >= maxEntries) pages.delete(pages.keys().next().value!);
    pages.set(key, served);
    return served;
  };
}
