import type { VersionStatus } from "../api-lifecycle/versions-schema";

export type DeprecatedOperation = { method: string; path: string; deprecatedAt: Date; sunsetAt: Date | null };

export type VersionChangelogEntry = { version: string; date: string; notes: string };

/** A version of an API as the portal shows it; its document is read only for the version on screen. */
export type CatalogVersion = {
  version: string;
  status: VersionStatus;
  releasedAt: Date | null;
  deprecatedAt: Date | null;
  sunsetAt: Date | null;
  deprecatedOperations: DeprecatedOperation[];
  /** the version's own changelog; empty when only the API's is kept */
  changelog: VersionChangelogEntry[];
};

/** What the catalog reads of each version. */
export const CATALOG_VERSION_SELECT = {
  version: true,
  status: true,
  releasedAt: true,
  deprecatedAt: true,
  sunsetAt: true,
  changelog: true,
  operationDeprecations: { select: { method: true, path: true, deprecatedAt: true, sunsetAt: true }, orderBy: { path: "asc" } },
} as const;

/** Every version of the API is deprecated or retired: the catalog hides it unless asked to show deprecated APIs. */
export function isDeprecatedApi(versions: readonly Pick<CatalogVersion, "status">[]): boolean {
  return versions.length > 0 && versions.every((version) => version.status === "deprecated" || version.status === "retired");
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The document with `deprecated: true` on each operation the version marks deprecated
 * (an `ApiOperationDeprecation`), so the Reference shows them as the document's own are.
 */
export function markDeprecatedOperations(document: Record<string, unknown>, version: CatalogVersion | undefined): Record<string, unknown> {
  if (!version || version.deprecatedOperations.length === 0 || !isRecord(document.paths)) return document;
  const paths: Record<string, unknown> = { ...document.paths };
  for (const { method, path } of version.deprecatedOperations) {
    const item = paths[path];
    const key = method.toLowerCase() as (typeof METHODS)[number];
    if (!isRecord(item) || !METHODS.includes(key) || !isRecord(item[key])) continue;
    paths[path] = { ...item, [key]: { ...item[key], deprecated: true } };
  }
  return { ...document, paths };
}

const isDeprecated = (operation: unknown) => isRecord(operation) && operation.deprecated === true;

/** Whether any operation of the document is marked deprecated. */
export function hasDeprecatedOperations(document: Record<string, unknown>): boolean {
  return isRecord(document.paths) && Object.values(document.paths).some((item) => isRecord(item) && METHODS.some((method) => isDeprecated(item[method])));
}

/** The document without its deprecated operations, and without the paths that had nothing else: the Reference's "hide deprecated". */
export function withoutDeprecatedOperations(document: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(document.paths)) return document;
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    const kept = Object.fromEntries(Object.entries(item).filter(([key, value]) => !(METHODS as readonly string[]).includes(key) || !isDeprecated(value)));
    if (METHODS.some((method) => method in kept)) paths[path] = kept;
  }
  return { ...document, paths };
}
