import "server-only";
import type { DataPlaneStore, EnvironmentRow } from "../data-plane/store";
import type { ApiKind } from "../generated/prisma/sqlite/enums";
import type { UpstreamEntry } from "../upstreams/upstream-set";
import { upstreamPolicySchema } from "../upstreams/upstream-policy";
import { createDocumentRoutes } from "./document-routes";
import type { PathTemplates } from "./path-templates";

export type GatewayEnvironment = EnvironmentRow;

export type GatewayApi = {
  id: string;
  slug: string;
  kind: ApiKind;
  isPublic: boolean;
  scopes: readonly string[];
  /** proxied APIs with an OpenAPI document: the templates of its paths; undefined without one */
  routes: PathTemplates | undefined;
};

export type GatewayDirectory = {
  environment(slug: string): Promise<GatewayEnvironment | undefined>;
  environmentById(id: string): Promise<GatewayEnvironment | undefined>;
  /** every environment, for the messages that list them */
  environments(): Promise<GatewayEnvironment[]>;
  api(environmentId: string, apiSlug: string): Promise<GatewayApi | undefined>;
  /** every API available in the environment */
  apis(environmentId: string): Promise<GatewayApi[]>;
};

type Snapshot = {
  environments: Map<string, GatewayEnvironment>;
  environmentsById: Map<string, GatewayEnvironment>;
  apis: Map<string, GatewayApi>;
  apisByEnvironment: Map<string, GatewayApi[]>;
  loadedAt: number;
};

/**
 * Environments and API registrations change rarely and are read on every
 * request, so the gateway reads them all at once and keeps them for `maxAgeMs`.
 * Past that age requests go on with the snapshot they have while one reload
 * runs; only the first load is waited for. 4 s plus a reload keeps a change,
 * such as an environment's rate limit, within the 5 s every instance promises.
 */
export function createGatewayDirectory(
  store: Pick<DataPlaneStore, "directory" | "openapiDocuments">,
  options: { maxAgeMs?: number; onUpstreams?: (entries: UpstreamEntry[]) => void } = {},
): GatewayDirectory {
  const { maxAgeMs = 4_000, onUpstreams } = options;
  let latest: Snapshot | undefined;
  let loading: Promise<Snapshot> | undefined;
  const documentRoutes = createDocumentRoutes(store);

  async function load(): Promise<Snapshot> {
    const { environments, availability, scopes, documents } = await store.directory();
    const routesByApi = await documentRoutes(documents);
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
        routes: routesByApi.get(row.apiId),
      };
      // A stored policy that does not validate leaves the API without an upstream: its calls answer 404.
      const policy = row.upstream === null ? undefined : upstreamPolicySchema.safeParse(row.upstream).data;
      const env = environmentSlugs.get(row.environmentId);
      if (policy && env) upstreams.push({ env, api: api.slug, policy });
      apis.set(`${row.environmentId}/${api.slug}`, api);
      apisByEnvironment.set(row.environmentId, [...(apisByEnvironment.get(row.environmentId) ?? []), api]);
    }
    onUpstreams?.(upstreams);
    return {
      environments: new Map(environments.map((env) => [env.slug, env])),
      environmentsById: new Map(environments.map((env) => [env.id, env])),
      apis,
      apisByEnvironment,
      loadedAt: Date.now(),
    };
  }

  function reload(): Promise<Snapshot> {
    loading ??= load()
      .then((loaded) => (latest = loaded))
      .finally(() => (loading = undefined));
    return loading;
  }

  async function current(): Promise<Snapshot> {
    if (!latest) return reload();
    if (Date.now() - latest.loadedAt >= maxAgeMs) reload().catch(() => undefined);
    return latest;
  }

  return {
    async environment(slug) {
      return (await current()).environments.get(slug);
    },
    async environmentById(id) {
      return (await current()).environmentsById.get(id);
    },
    async environments() {
      return [...(await current()).environments.values()];
    },
    async api(environmentId, apiSlug) {
      return (await current()).apis.get(`${environmentId}/${apiSlug}`);
    },
    async apis(environmentId) {
      return (await current()).apisByEnvironment.get(environmentId) ?? [];
    },
  };
}
