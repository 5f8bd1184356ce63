import "server-only";
import type { DataPlaneStore } from "../data-plane/store";
import { createPathTemplates, type PathTemplates } from "./path-templates";

/**
 * The route template a proxied call to a path its API's document does not declare
 * is recorded under, in the request log and the metrics: parenthesised, as
 * `(unmatched)` is, so that no path template can be mistaken for it.
 */
export const UNDECLARED_ROUTE = "(undeclared)";

/**
 * The templates of the document's paths, which are relative to the API's base in the
 * gateway (`/gw/{env}/{api}`): the catalog publishes the document with that base as
 * its only server, so the document's own `servers` play no part. Null for text that
 * is not a JSON object, which registration does not let through.
 */
function routesOf(document: string): PathTemplates | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(document);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const paths = (parsed as { paths?: unknown }).paths;
  const templates = typeof paths === "object" && paths !== null ? Object.keys(paths).filter((path) => path.startsWith("/")) : [];
  return createPathTemplates(templates);
}

type Cached = { updatedAt: string; routes: PathTemplates | null };

/** A version with a document, and when it was last changed. */
export type DocumentStamp = { versionId: string; updatedAt: string };

/** The route tables of the versions with a document, by version id. */
export type DocumentRoutes = (stamps: readonly DocumentStamp[]) => Promise<Map<string, PathTemplates>>;

/**
 * Each document is read and parsed when its version was changed since the last load, and
 * only then: the directory reloads every few seconds, and a document can be megabytes.
 */
export function createDocumentRoutes(store: Pick<DataPlaneStore, "openapiDocuments">): DocumentRoutes {
  let cache = new Map<string, Cached>();
  return async (stamps) => {
    const kept = new Map<string, Cached>();
    const changed: string[] = [];
    for (const { versionId, updatedAt } of stamps) {
      const cached = cache.get(versionId);
      if (cached?.updatedAt === updatedAt) kept.set(versionId, cached);
      else changed.push(versionId);
    }
    if (changed.length > 0) {
      for (const row of await store.openapiDocuments(changed)) kept.set(row.versionId, { updatedAt: row.updatedAt, routes: routesOf(row.document) });
    }
    cache = kept;
    const tables = new Map<string, PathTemplates>();
    for (const [versionId, { routes }] of kept) if (routes) tables.set(versionId, routes);
    return tables;
  };
}
