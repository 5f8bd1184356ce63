import { z } from "zod";
import type { CredentialType } from "../generated/prisma/sqlite/enums";

/** Credential types as they appear in URLs (`?type=global-sso`). */
export const CREDENTIAL_TYPE_PARAMS = { "global-sso": "GLOBAL_SSO", platform: "PLATFORM" } as const satisfies Record<
  string,
  CredentialType
>;
export type CredentialTypeParam = keyof typeof CREDENTIAL_TYPE_PARAMS;

export const CREDENTIAL_TYPE_LABELS: Record<CredentialType, string> = { GLOBAL_SSO: "Global SSO", PLATFORM: "Platform" };

const firstValue = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/**
 * The catalog's URL state. A value that makes no sense is dropped rather than
 * answered with an error: the catalog is a page to browse, not an API.
 */
export const catalogFilterSchema = z.object({
  q: z.preprocess(firstValue, z.string().trim().max(200).catch("")).default(""),
  env: z.preprocess(firstValue, z.string().regex(/^[a-z0-9-]{1,64}$/).optional().catch(undefined)),
  type: z.preprocess(firstValue, z.enum(["global-sso", "platform"]).optional().catch(undefined)),
});
export type CatalogFilter = z.infer<typeof catalogFilterSchema>;

type Filterable = {
  name: string;
  summary: string;
  description: string;
  tags: string[];
  environments: { slug: string; credentialType: CredentialType }[];
};

function matchesSearch(api: Filterable, query: string): boolean {
  const haystack = [api.name, api.summary, api.description, ...api.tags].join("\n").toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => haystack.includes(term));
}

/**
 * APIs matching every search term (in name, summary, description or tags) and
 * offered in an environment that satisfies both filters at once.
 */
export function filterCatalog<T extends Filterable>(apis: T[], filter: CatalogFilter): T[] {
  const credentialType = filter.type ? CREDENTIAL_TYPE_PARAMS[filter.type] : undefined;
  return apis.filter(
    (api) =>
      matchesSearch(api, filter.q) &&
      api.environments.some(
        (env) =>
          (filter.env === undefined || env.slug === filter.env) &&
          (credentialType === undefined || env.credentialType === credentialType),
      ),
  );
}
