import "server-only";
import { ACCESS_TOKEN_SCOPES } from "../access-tokens/scopes";
import type { CatalogListing } from "../catalog/catalog-listing";
import { MANAGEMENT_API_SLUG } from "../catalog/management-slug";
import { listOperations } from "../catalog/operations";
import { managementApiDocument } from "./openapi";
import { MANAGEMENT_API_BASE } from "./serve";

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
