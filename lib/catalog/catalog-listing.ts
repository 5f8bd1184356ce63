import type { CatalogApi } from "./catalog-api";
import type { Operation } from "./operations";

/** How the catalog shows an API: what every listed API has, and how callers authenticate when it is not by client credentials. */
export type CatalogListing = Pick<
  CatalogApi,
  "slug" | "name" | "summary" | "description" | "version" | "tags" | "isPublic" | "credentialTypes" | "environments"
> & {
  operations: Operation[];
  guides: CatalogApi["guides"];
  /** set for an API called with something other than an environment's client credentials */
  authentication?: string;
};
