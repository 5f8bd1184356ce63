import { diffOpenApi, type OpenApiDiff } from "./openapi-diff";

/** What an ApiVersion row contributes: its path segment and its document (JSON text, or an object for a built-in API). */
export type VersionDocument = { version: string; openapiDocument: string | Record<string, unknown> | null };

/** One step from a version to the next; `diff` is null when either side has no readable document. */
export type VersionStep = { from: string; to: string; diff: OpenApiDiff | null };

const VERSION_ORDER = new Intl.Collator("en", { numeric: true });

function parsed(document: VersionDocument["openapiDocument"]): Record<string, unknown> | null {
  if (document === null || typeof document === "object") return document;
  try {
    const value: unknown = JSON.parse(document);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The changes from each version to the next, in version order (`v2` before `v10`), oldest step first. */
export function versionSteps(versions: readonly VersionDocument[]): VersionStep[] {
  const ordered = versions.toSorted((a, b) => VERSION_ORDER.compare(a.version, b.version));
  return ordered.slice(1).map((to, index) => {
    const from = ordered[index]!;
    const before = parsed(from.openapiDocument);
    const after = parsed(to.openapiDocument);
    return { from: from.version, to: to.version, diff: before && after ? diffOpenApi(before, after) : null };
  });
}
