import "server-only";
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { refusedWhileDatabaseAway } from "../caching/database-away";
import type { ChangeSignal } from "../caching/change-signal";
import { createRefreshedCopy } from "../caching/refreshed-copy";
import type { AvailabilityRow, DataPlaneStore, EnvironmentRow, OperationDeprecationRow, VersionRow } from "../data-plane/store";
import type { ApiKind } from "../generated/prisma/sqlite/enums";
import type { UpstreamEntry } from "../upstreams/upstream-set";
import { upstreamPolicySchema } from "../upstreams/upstream-policy";
import { type AuthenticationMethod, storedAuthentication } from "./policies/authentication/schema";
import { type McpSettings, storedMcpSettings } from "./mcp/settings";
import { type ApiPolicies, apiPoliciesSchema, NO_POLICIES } from "./policies/policy-set";
import { validatesRequests } from "./policies/request-validation/applies";
import { createDocumentRoutes, type DocumentTables } from "./document-routes";
import { type Deprecation, type GatewayVersion, type GatewayVersions, operationKey } from "./versions";

export type GatewayEnvironment = EnvironmentRow;

export type GatewayApi = {
  id: string;
  slug: string;
  kind: ApiKind;
  isPublic: boolean;
  scopes: readonly string[];
  /** whether it offers plans: then a caller needs its application's subscription, whose plan's limits apply */
  offersPlans: boolean;
  /** its versions; none for an API registered without any */
  versions: GatewayVersions;
  /** the policies of its routes (lib/gateway/policies) */
  policies: ApiPolicies;
  /** its MCP server's settings (lib/gateway/mcp) */
  mcp: McpSettings;
  /** the methods its calls may authenticate with, any of them */
  authentication: readonly AuthenticationMethod[];
  /** a digest of its upstream and its versions' documents in this environment: changes when either does (the response cache's keys hold it) */
  configuration: string;
};

/** The lookups of one snapshot of the directory, answered at once. */
export type DirectoryView = {
  environment(slug: string): GatewayEnvironment | undefined;
  /** every environment, for the messages that list them */
  environments(): GatewayEnvironment[];
  api(environmentId: string, apiSlug: string): GatewayApi | undefined;
  /** every API available in the environment */
  apis(environmentId: string): GatewayApi[];
};

export type GatewayDirectory = {
  /** The lookups of the snapshot that answers: at once while it is fresh, as most calls find it, else once it is read. */
  view(): DirectoryView | Promise<DirectoryView>;
  environment(slug: string): Promise<GatewayEnvironment | undefined>;
  environmentById(id: string): Promise<GatewayEnvironment | undefined>;
  /** every environment, for the messages that list them */
  environments(): Promise<GatewayEnvironment[]>;
  api(environmentId: string, apiSlug: string): Promise<GatewayApi | undefined>;
  /** every API available in the environment */
  apis(environmentId: string): Promise<GatewayApi[]>;
};

const NO_VERSIONS: GatewayVersions = { bySegment: new Map(), current: undefined };

const time = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** A version's own deprecation, while its status says so. */
function versionDeprecation(row: VersionRow): Deprecation | undefined {
  if (row.status !== "deprecated") return undefined;
  return { deprecatedAt: time(row.deprecatedAt) ?? time(row.updatedAt) ?? 0, sunsetAt: time(row.sunsetAt) };
}

/** Each API's versions by path segment, with their routes and deprecated operations. */
function gatewayVersions(
  rows: readonly VersionRow[],
  deprecations: readonly OperationDeprecationRow[],
  documents: ReadonlyMap<string, DocumentTables>,
): Map<string, GatewayVersions> {
  const operations = new Map<string, Map<string, Deprecation>>();
  for (const row of deprecations) {
    const byKey = operations.get(row.apiVersionId) ?? new Map<string, Deprecation>();
    byKey.set(operationKey(row.method, row.path), { deprecatedAt: Date.parse(row.deprecatedAt), sunsetAt: time(row.sunsetAt) });
    operations.set(row.apiVersionId, byKey);
  }
  const byApi = new Map<string, { bySegment: Map<string, GatewayVersion>; current: GatewayVersion | undefined }>();
  for (const row of rows) {
    const version: GatewayVersion = {
      id: row.id,
      version: row.version,
      status: row.status,
      deprecation: versionDeprecation(row),
      routes: documents.get(row.id)?.routes,
      validators: documents.get(row.id)?.validators,
      operations: operations.get(row.id) ?? new Map(),
    };
    const entry = byApi.get(row.apiId) ?? { bySegment: new Map(), current: undefined };
    entry.bySegment.set(row.version, version);
    if (row.status === "current") entry.current = version;
    byApi.set(row.apiId, entry);
  }
  return byApi;
}

/** Every write validates the policies, so stored ones that do not validate (a column edited by hand) count as none, as an unreadable upstream policy does. */
function storedPolicies(row: AvailabilityRow): ApiPolicies {
  if (row.policies === null || row.policies === undefined) return NO_POLICIES;
  return apiPoliciesSchema.safeParse(row.policies).data ?? NO_POLICIES;
}

/** What a proxied call's answer depends on besides its policies: the upstream it goes to, and each version's document, known by its `updatedAt`. */
function configurationDigest(row: AvailabilityRow, versions: readonly VersionRow[]): string {
  const documents = versions.map(({ id, updatedAt }) => [id, updatedAt]);
  return createHash("sha256")
    .update(JSON.stringify([row.upstream, documents]))
    .digest("base64url");
}

type Snapshot = {
  environmentsById: Map<string, GatewayEnvironment>;
  upstreams: UpstreamEntry[];
  view: DirectoryView;
};

/**
 * Environments and API registrations change rarely and are read on every request, so
 * the gateway reads them all at once and keeps them. A call is never answered from a
 * snapshot read more than `maxAgeMs` ago: past `refreshAfterMs` calls go on with the
 * snapshot they have while one reload runs beside them, and past `maxAgeMs` they wait
 * for it. When that reload fails, the call is refused 503 `not-ready` rather than
 * answered from an older configuration (decision 042). A signal of `changes` reads it again at once.
 */
export function createGatewayDirectory(
  store: Pick<DataPlaneStore, "directory" | "openapiDocuments">,
  options: {
    maxAgeMs?: number;
    refreshAfterMs?: number;
    onUpstreams?: (entries: UpstreamEntry[]) => void;
    changes?: ChangeSignal;
    log?: Pick<Logger, "warn">;
  } = {},
): GatewayDirectory {
  const { maxAgeMs = 4_000, onUpstreams, log } = options;
  const documentRoutes = createDocumentRoutes(store);

  async function load(): Promise<Snapshot> {
    const { environments, availability, scopes, apisWithPlans, versions, operationDeprecations } = await store.directory();
    const withPlans = new Set(apisWithPlans);
    const validating = new Set(availability.filter((row) => validatesRequests(storedPolicies(row))).map((row) => row.apiId));
    const documents = await documentRoutes(
      versions.filter((row) => row.hasDocument).map(({ id, apiId, updatedAt }) => ({ versionId: id, updatedAt, validate: validating.has(apiId) })),
    );
    const versionsByApi = gatewayVersions(versions, operationDeprecations, documents);
    const versionRowsByApi = new Map<string, VersionRow[]>();
    for (const version of versions) versionRowsByApi.set(version.apiId, [...(versionRowsByApi.get(version.apiId) ?? []), version]);
    const scopesByApi = new Map<string, string[]>();
    for (const { apiId, name } of scopes) {
      const names = scopesByApi.get(apiId);
      if (names) names.push(name);
      else scopesByApi.set(apiId, [name]);
    }
    const apis = new Map<string, GatewayApi>();
    const apisByEnvironment = new Map<string, GatewayApi[]>();
    const environmentSlugs = new Map(environments.map((env) => [env.id, env.slug]));
    const upstreams: UpstreamEntry[] = [];
    for (const row of availability) {
      const api = {
        id: row.apiId,
        slug: row.slug,
        kind: row.kind,
        isPublic: row.isPublic,
        scopes: scopesByApi.get(row.apiId) ?? [],
        offersPlans: withPlans.has(row.apiId),
        versions: versionsByApi.get(row.apiId) ?? NO_VERSIONS,
        policies: storedPolicies(row),
        mcp: storedMcpSettings(row.mcp),
        authentication: storedAuthentication(row.authentication),
        configuration: configurationDigest(row, versionRowsByApi.get(row.apiId) ?? []),
      };
      // A stored policy that does not validate leaves the API without an upstream: its calls answer 404.
      const policy = row.upstream === null ? undefined : upstreamPolicySchema.safeParse(row.upstream).data;
      const env = environmentSlugs.get(row.environmentId);
      if (policy && env) upstreams.push({ env, api: api.slug, policy });
      apis.set(`${row.environmentId}/${api.slug}`, api);
      apisByEnvironment.set(row.environmentId, [...(apisByEnvironment.get(row.environmentId) ?? []), api]);
    }
    const bySlug = new Map(environments.map((env) => [env.slug, env]));
    const view: DirectoryView = {
      environment: (slug) => bySlug.get(slug),
      environments: () => [...bySlug.values()],
      api: (environmentId, apiSlug) => apis.get(`${environmentId}/${apiSlug}`),
      apis: (environmentId) => apisByEnvironment.get(environmentId) ?? [],
    };
    return { environmentsById: new Map(environments.map((env) => [env.id, env])), upstreams, view };
  }

  const snapshot = createRefreshedCopy(load, { maxAgeMs, refreshAfterMs: options.refreshAfterMs ?? maxAgeMs / 2 });
  options.changes?.subscribe(snapshot.expire);

  const answered = refusedWhileDatabaseAway("gateway directory", log);
  let configured: Snapshot | undefined;

  /** The snapshot that answers, whose upstreams are the ones configured; a fresh one without waiting on the reads' bookkeeping, as most calls find it. */
  function current(): Snapshot | Promise<Snapshot> {
    const found = snapshot.fresh();
    return found ? configure(found) : answered(snapshot.get()).then(configure);
  }

  function configure(found: Snapshot): Snapshot {
    if (found !== configured) {
      configured = found;
      onUpstreams?.(found.upstreams);
    }
    return found;
  }

  return {
    view() {
      const found = current();
      return found instanceof Promise ? found.then((ready) => ready.view) : found.view;
    },
    async environment(slug) {
      return (await current()).view.environment(slug);
    },
    async environmentById(id) {
      return (await current()).environmentsById.get(id);
    },
    async environments() {
      return (await current()).view.environments();
    },
    async api(environmentId, apiSlug) {
      return (await current()).view.api(environmentId, apiSlug);
    },
    async apis(environmentId) {
      return (await current()).view.apis(environmentId);
    },
  };
}
