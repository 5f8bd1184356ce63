import "server-only";
import { z } from "zod";
import type { ApiKind, CredentialType, Db } from "../db";
import { compareVersions, defaultVersion, documentLabel } from "../api-lifecycle/versions";
import { CATALOG_VERSION_SELECT, type CatalogVersion } from "./catalog-versions";
import { type Guide, storedGuidesSchema } from "./guides";

export type CatalogEnvironment = {
  slug: string;
  name: string;
  /** the credential type to use for this API here: the API's own, else the environment's */
  credentialType: CredentialType;
  selfService: boolean;
};

export type ChangelogEntry = { version: string; date: string; notes: string };

export type CatalogApi = {
  slug: string;
  name: string;
  summary: string;
  description: string;
  version: string;
  tags: string[];
  kind: ApiKind;
  isPublic: boolean;
  /** whether its calls may authenticate with an API key (`authentication` lists apiKey), beside or instead of a token */
  acceptsApiKeys?: boolean;
  /** the credential types callers use, in environment order; one unless the API follows each environment's type */
  credentialTypes: CredentialType[];
  /** where the API is available, in the order environments are listed everywhere */
  environments: CatalogEnvironment[];
  changelog: ChangelogEntry[];
  scopes: { name: string; description: string }[];
  releasedAt: Date | null;
  /** the uploaded OpenAPI document of a proxied API, as JSON text */
  openapiDocument: string | null;
  /** the guides its registration stores; a built-in API's own come from `apiGuides` */
  guides: Guide[];
  /** every version, oldest first */
  versions: CatalogVersion[];
  /** whether `/mcp/{env}/{api}` serves its operations as MCP tools (lib/gateway/mcp) */
  mcpEnabled: boolean;
  /** the stored MCP settings, which lib/gateway/mcp/settings.ts reads */
  mcp: unknown;
  /** the version on screen, whose document `openapiDocument` and `version` are: the current one unless another was asked for */
  shownVersion: CatalogVersion | undefined;
  /** `?version=` of the pages, set when the version shown is not the one shown by default */
  versionParam: string | undefined;
};

/**
 * An API of one version shows the API's changelog, which its registration form and the
 * configuration file's top-level `changelog` edit; of several, the shown version's own when it
 * keeps one.
 */
function changelogOf(version: CatalogVersion | undefined, versionCount: number, apiChangelog: ChangelogEntry[]): ChangelogEntry[] {
  if (versionCount <= 1 && apiChangelog.length > 0) return apiChangelog;
  return version && version.changelog.length > 0 ? version.changelog : apiChangelog;
}

/** Restricts the catalog to one environment when the deployment is pinned to it (`PORTAL_ENVIRONMENT`). */
export type CatalogScope = { pinnedEnvironment?: string };

const tagsSchema = z.array(z.string()).catch([]);
const changelogSchema = z.array(z.object({ version: z.string(), date: z.string(), notes: z.string() })).catch([]);

const API_INCLUDE = {
  environments: { include: { environment: true } },
  scopes: { orderBy: { name: "asc" } },
  versions: { select: CATALOG_VERSION_SELECT },
} as const;

type ApiRow = Awaited<ReturnType<typeof loadRows>>[number];

function loadRows(db: Db, slug?: string) {
  return db.api.findMany({
    where: slug === undefined ? {} : { slug },
    include: API_INCLUDE,
    orderBy: { name: "asc" },
  });
}

function toCatalogApi(row: ApiRow, scope: CatalogScope): CatalogApi | undefined {
  const environments = row.environments
    .map(({ environment }) => environment)
    .filter((env) => scope.pinnedEnvironment === undefined || env.slug === scope.pinnedEnvironment)
    .sort((a, b) => a.position - b.position || a.slug.localeCompare(b.slug))
    .map(({ slug, name, credentialType, selfService }) => ({
      slug,
      name,
      credentialType: row.credentialType ?? credentialType,
      selfService,
    }));
  if (environments.length === 0) return undefined;
  const versions = row.versions
    .map(({ operationDeprecations, changelog, ...version }) => ({
      ...version,
      changelog: changelogSchema.parse(changelog),
      deprecatedOperations: operationDeprecations,
    }))
    .sort(compareVersions);
  const shownVersion = defaultVersion(versions);
  return {
    slug: row.slug,
    name: row.name,
    summary: row.summary,
    description: row.description,
    version: row.version,
    tags: tagsSchema.parse(row.tags),
    kind: row.kind,
    isPublic: row.isPublic,
    acceptsApiKeys: row.authentication.split(" ").includes("apiKey"),
    credentialTypes: [...new Set(environments.map((env) => env.credentialType))],
    environments,
    changelog: changelogOf(shownVersion, row.versions.length, changelogSchema.parse(row.changelog)),
    scopes: row.scopes.map(({ name, description }) => ({ name, description })),
    releasedAt: row.releasedAt,
    openapiDocument: row.openapiDocument,
    guides: storedGuidesSchema.parse(row.guides),
    versions,
    // The gateway validates the whole setting; the catalog needs only whether it is on.
    mcpEnabled: typeof row.mcp === "object" && row.mcp !== null && (row.mcp as { enabled?: unknown }).enabled === true,
    mcp: row.mcp,
    shownVersion,
    versionParam: undefined,
  };
}

/** Each version's document, oldest first, for the changes from one version to the next (`ApiChanges`). */
export async function catalogVersionDocuments(db: Db, slug: string): Promise<{ version: string; openapiDocument: string | null }[]> {
  return (await db.apiVersion.findMany({ where: { api: { slug } }, select: { version: true, openapiDocument: true } })).sort(compareVersions);
}

/** Every API a visitor may see, by name; an API offered in no visible environment is left out. */
export async function listCatalogApis(db: Db, scope: CatalogScope = {}): Promise<CatalogApi[]> {
  const rows = await loadRows(db);
  return rows.flatMap((row) => toCatalogApi(row, scope) ?? []);
}

/**
 * One visible API, or undefined when it does not exist or is not offered in a visible environment;
 * with `version`, as that version shows it (its document and version), when it has one by that name.
 */
export async function findCatalogApi(db: Db, slug: string, scope: CatalogScope = {}, version?: string): Promise<CatalogApi | undefined> {
  const [row] = await loadRows(db, slug);
  const api = row && toCatalogApi(row, scope);
  const shown = api?.versions.find((candidate) => candidate.version === version);
  if (!api || !shown || shown === api.shownVersion) return api;
  const { openapiDocument } = await db.apiVersion.findUniqueOrThrow({
    where: { apiId_version: { apiId: row.id, version: shown.version } },
    select: { openapiDocument: true },
  });
  return {
    ...api,
    ...(api.kind === "PROXY" ? { openapiDocument, version: documentLabel(openapiDocument) ?? shown.version } : {}),
    changelog: changelogOf(shown, api.versions.length, changelogSchema.parse(row.changelog)),
    shownVersion: shown,
    versionParam: shown.version,
  };
}
