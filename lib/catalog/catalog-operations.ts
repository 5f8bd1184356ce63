import "server-only";
import { apiDocument } from "./api-document";
import type { CatalogApi } from "./catalog-api";
import { listOperations, type Operation } from "./operations";

/** Each API with its operations, for searching the catalog by method, path and summary. */
export function withOperations(apis: CatalogApi[], publicUrl: string): (CatalogApi & { operations: Operation[] })[] {
  return apis.map((api) => {
    const env = api.environments[0];
    return { ...api, operations: env ? listOperations(apiDocument(api, env, publicUrl)) : [] };
  });
}
