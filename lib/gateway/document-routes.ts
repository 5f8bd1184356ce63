import "server-only";
import type { DataPlaneStore } from "../data-plane/store";
import { createPathTemplates, type PathTemplates } from "./path-templates";
import { compileDocumentValidators, type DocumentValidators } from "./policies/request-validation/compile";

/**
 * The route template a proxied call to a path its API's document does not declare
 * is recorded under, in the request log and the metrics: parenthesised, as
 * `(unmatched)` is, so that no path template can be mistaken for it.
 */
export const UNDECLARED_ROUTE = "(undeclared)";

/** What the gateway reads of a version's document: its paths' templates, and its operations' validators when asked for. */
export type DocumentTables = { routes: PathTemplates; validators?: DocumentValidators };

/**
 * The templates of the document's paths, which are relative to the API's base in the
 * gateway (`/gw/{env}/{api}`): the catalog publishes the document with that base as
 * its only server, so the document's own `servers` play no part. Null for text that
 * is not a JSON object, which registration does not let through.
 */
function tablesOf(document: string, validate: boolean): DocumentTables | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(document);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const paths = (parsed as { paths?: unknown }).paths;
  const templates = typeof paths === "object" && paths !== null ? Object.keys(paths).filter((path) => path.startsWith("/")) : [];
  const routes = createPathTemplates(templates);
  if (!validate) return { routes };
  return { routes, validators: compileDocumentValidators(parsed) ?? undefined };
}

type Cached = { updatedAt: string; validated: boolean; tables: DocumentTables | null };

/**
 * A version with a document, when it was last changed, and whether a policy of its API
 * validates requests, which its operations' validators are compiled for.
 */
export type DocumentStamp = { versionId: string; updatedAt: string; validate: boolean };

/** What the gateway reads of the versions with a document, by version id. */
export type DocumentRoutes = (stamps: readonly DocumentStamp[]) => Promise<Map<string, DocumentTables>>;

/**
 * Each document is read and parsed when its version was changed since the last load, or
 * validation was turned on for it, and only then: the directory reloads every few seconds,
 * a document can be megabytes, and compiling its validators is the costliest part.
 */
export function createDocumentRoutes(store: Pick<DataPlaneStore, "openapiDocuments">): DocumentRoutes {
  let cache = new Map<string, Cached>();
  return async (stamps) => {
    const kept = new Map<string, Cached>();
    const changed = new Map<string, boolean>();
    for (const { versionId, updatedAt, validate } of stamps) {
      const cached = cache.get(versionId);
      if (cached?.updatedAt === updatedAt && (cached.validated || !validate)) kept.set(versionId, cached);
      else changed.set(versionId, validate);
    }
    if (changed.size > 0) {
      for (const row of await store.openapiDocuments([...changed.keys()])) {
        const validate = changed.get(row.versionId) ?? false;
        kept.set(row.versionId, { updatedAt: row.updatedAt, validated: validate, tables: tablesOf(row.document, validate) });
      }
    }
    cache = kept;
    const tables = new Map<string, DocumentTables>();
    for (const [versionId, cached] of kept) if (cached.tables) tables.set(versionId, cached.tables);
    return tables;
  };
}
