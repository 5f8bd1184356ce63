import "server-only";
import { ACCESS_TOKEN_SCOPES } from "../access-tokens/scopes";
import { managementApiDocument } from "../management-api/openapi";
import { MANAGEMENT_API_BASE } from "../management-api/serve";
import type { CatalogApi } from "./catalog-api";
import { MANAGEMENT_API_SLUG } from "./management-slug";
import { listOperations, type Operation } from "./operations";

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

/**
 * The management API as the catalog lists it, described by its own OpenAPI document: it is
 * served by the portal at /api/v1, in no environment, and called with a personal access token.
 */
export function managementListing(publicUrl: string): CatalogListing & { document: Record<string, unknown>; serverUrl: string; scopes: [string, string][] } {
  const document = managementApiDocument({ publicUrl });
  const info = document.info as { title: string; version: string; summary: string };
  return {
    slug: MANAGEMENT_API_SLUG,
    name: info.title,
    summary: info.summary,
    description: "A REST API over the portal's own services: applications, credentials, secret rotation, usage and administration.",
    version: info.version,
    tags: ["management", "automation", "ci"],
    isPublic: false,
    credentialTypes: [],
    environments: [],
    operations: listOperations(document),
    guides: [],
    authentication: "Personal access token",
    document,
    serverUrl: `${publicUrl}${MANAGEMENT_API_BASE}`,
    scopes: Object.entries(ACCESS_TOKEN_SCOPES),
  };
}
