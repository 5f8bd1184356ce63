import "server-only";
import type { Db } from "../db";
import type { ApiKind, CredentialType } from "../db";

export type GatewayEnvironment = {
  id: string;
  slug: string;
  name: string;
  credentialType: CredentialType;
  tokenLifetimeSeconds: number;
  rateLimitBurst: number;
  rateLimitPerSecond: number;
};

export type GatewayApi = {
  id: string;
  slug: string;
  kind: ApiKind;
  isPublic: boolean;
  upstreamUrl: string | null;
};

export type Catalog = {
  environment(slug: string): Promise<GatewayEnvironment | undefined>;
  api(environmentId: string, apiSlug: string): Promise<GatewayApi | undefined>;
};

type Snapshot = { environments: Map<string, GatewayEnvironment>; apis: Map<string, GatewayApi>; loadedAt: number };

/**
 * Environments and API registrations change rarely and are read on every
 * request, so the gateway reads them all at once and keeps them for `maxAgeMs`.
 */
export function createCatalog(db: Db, maxAgeMs = 5_000): Catalog {
  let snapshot: Promise<Snapshot> | undefined;

  async function load(): Promise<Snapshot> {
    const [environments, availability] = await Promise.all([
      db.environment.findMany(),
      db.apiEnvironment.findMany({ include: { api: { select: { slug: true, kind: true, isPublic: true } } } }),
    ]);
    return {
      environments: new Map(environments.map((env) => [env.slug, env])),
      apis: new Map(
        availability.map((row) => [
          `${row.environmentId}/${row.api.slug}`,
          { id: row.apiId, slug: row.api.slug, kind: row.api.kind, isPublic: row.api.isPublic, upstreamUrl: row.upstreamUrl },
        ]),
      ),
      loadedAt: Date.now(),
    };
  }

  async function current(): Promise<Snapshot> {
    const cached = snapshot && (await snapshot.catch(() => undefined));
    if (cached && Date.now() - cached.loadedAt < maxAgeMs) return cached;
    snapshot = load();
    return snapshot;
  }

  return {
    async environment(slug) {
      return (await current()).environments.get(slug);
    },
    async api(environmentId, apiSlug) {
      return (await current()).apis.get(`${environmentId}/${apiSlug}`);
    },
  };
}
