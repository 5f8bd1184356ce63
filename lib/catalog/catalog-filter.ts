import { z } from "zod";
import type { CredentialType } from "../generated/prisma/sqlite/enums";
import { type CatalogVersion, isDeprecatedApi } from "./catalog-versions";

/** Credential types as they appear in URLs (`?type=global-sso`). */
export const CREDENTIAL_TYPE_PARAMS = { "global-sso": "GLOBAL_SSO", platform: "PLATFORM" } as const satisfies Record<string, CredentialType>;
export type CredentialTypeParam = keyof typeof CREDENTIAL_TYPE_PARAMS;

export const CREDENTIAL_TYPE_LABELS: Record<CredentialType, string> = { GLOBAL_SSO: "Global SSO", PLATFORM: "Platform" };

const firstValue = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/**
 * The catalog's URL state. A value that makes no sense is dropped rather than
 * answered with an error: the catalog is a page to browse, not an API.
 */
export const catalogFilterSchema = z.object({
  q: z.preprocess(firstValue, z.string().trim().max(200).catch("")).default(""),
  env: z.preprocess(
    firstValue,
    z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/)
      .optional()
      .catch(undefined),
  ),
  type: z.preprocess(firstValue, z.enum(["global-sso", "platform"]).optional().catch(undefined)),
  /** APIs whose every version is deprecated or retired are hidden unless `?deprecated=show` */
  deprecated: z.preprocess(firstValue, z.enum(["show"]).optional().catch(undefined)),
});
export type CatalogFilter = z.infer<typeof catalogFilterSchema>;

export type SearchableOperation = { method: string; path: string; summary: string };
export type SearchableGuide = { title: string; markdown: string };

type Filterable = {
  name: string;
  summary: string;
  description: string;
  tags: string[];
  environments: { slug: string; credentialType: CredentialType }[];
  operations?: SearchableOperation[];
  guides?: SearchableGuide[];
  versions?: Pick<CatalogVersion, "status">[];
};

function terms(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

function containsAll(texts: string[], query: string): boolean {
  const haystack = texts.join("\n").toLowerCase();
  return terms(query).every((term) => haystack.includes(term));
}

const operationTexts = (operation: SearchableOperation) => [operation.method, operation.path, operation.summary];

const guideTexts = (guide: SearchableGuide) => [guide.title, guide.markdown];

function matchesSearch(api: Filterable, query: string): boolean {
  return (
    containsAll([api.name, api.summary, api.description, ...api.tags, ...(api.operations ?? []).flatMap(operationTexts)], query) ||
    matchingGuides(api.guides ?? [], query).length > 0
  );
}

/** The operations that match every search term on their own (method, path, summary); none without a search. */
export function matchingOperations<O extends SearchableOperation>(operations: O[], query: string): O[] {
  if (terms(query).length === 0) return [];
  return operations.filter((operation) => containsAll(operationTexts(operation), query));
}

/** The guides that contain every search term on their own (title or text); none without a search. */
export function matchingGuides<G extends SearchableGuide>(guides: G[], query: string): G[] {
  if (terms(query).length === 0) return [];
  return guides.filter((guide) => containsAll(guideTexts(guide), query));
}

/**
 * APIs matching every search term (in name, summary, description, tags or
 * operations, or all in one of their guides) and offered in an environment that satisfies both filters at once;
 * without those filters, an API served in no environment (the management API) is listed too;
 * deprecated APIs only when asked for.
 */
export function filterCatalog<T extends Filterable>(apis: T[], filter: CatalogFilter): T[] {
  const credentialType = filter.type ? CREDENTIAL_TYPE_PARAMS[filter.type] : undefined;
  return apis.filter(
    (api) =>
      (filter.deprecated === "show" || !isDeprecatedApi(api.versions ?? [])) &&
      matchesSearch(api, filter.q) &&
      ((filter.env === undefined && credentialType === undefined) ||
        api.environments.some(
          (env) => (filter.env === undefined || env.slug === filter.env) && (credentialType === undefined || env.credentialType === credentialType),
        )),
  );
}
