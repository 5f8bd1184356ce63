import "server-only";
import { type Guide, storedGuidesSchema } from "../catalog/guides";
import type { DbClient } from "../db";
import { type UpstreamPolicy, upstreamPolicySchema } from "../upstreams/upstream-policy";
import { compareVersions } from "../api-lifecycle/versions";
import type { VersionStatus } from "../api-lifecycle/versions-schema";
import type { PolicySet } from "../gateway/policies/policy-set";
import { storedAuthentication } from "../gateway/policies/authentication/schema";
import { MCP_OFF, type McpSettings, storedMcpSettings } from "../gateway/mcp/settings";
import { storedApiPolicies } from "../gateway/policies/set-api-policies";
import type { ConfigApi, ConfigEnvironment, ConfigFile, ConfigPlan, ConfigTrust } from "./config-file-schema";

export type EnvironmentState = Omit<ConfigEnvironment, "rateLimit"> & { rateLimit: { burst: number; perSecond: number } };

export type ChangelogEntry = { version: string; date: string; notes: string };

/** A version as the file and the database both describe it; dates as `2026-11-01`, or ISO 8601 when not midnight UTC. */
export type VersionState = {
  version: string;
  status: VersionStatus;
  openapiDocument: string | null;
  /** undefined in a file that marks a version deprecated without a date: the recorded one stays */
  deprecatedAt?: string | null;
  sunsetAt: string | null;
  /** undefined in a file that leaves the version's changelog alone */
  changelog?: ChangelogEntry[];
};

/** A proxied API as the file and the database both describe it, so that the two compare field by field. */
export type ApiState = Omit<ConfigApi, "scopes" | "openapi" | "changelog" | "guides" | "environments" | "versions" | "policies" | "routes" | "mcp"> & {
  scopes: { name: string; description: string }[];
  /** the document as validated JSON text; null when there is none; undefined in a file that lists versions */
  openapiDocument?: string | null;
  /** undefined in a file that lists no versions */
  versions?: VersionState[];
  /** undefined in a file that leaves the changelog alone */
  changelog?: ChangelogEntry[];
  /** undefined in a file that leaves the guides alone */
  guides?: Guide[];
  environments: Record<string, UpstreamPolicy>;
  /** the gateway policies of every route; empty when there are none, as when the file leaves them out */
  policies: PolicySet;
  /** each named route's own policies; empty when there are none */
  routes: Record<string, PolicySet>;
  /** its MCP server; off when the file leaves it out */
  mcp: McpSettings;
};

/** A credential's trust in an external issuer, by its client id. */
export type TrustState = ConfigTrust;

/** A plan as the file and the database both describe it. */
export type PlanState = ConfigPlan;

export type GatewayState = { environments: EnvironmentState[]; plans: PlanState[]; apis: ApiState[]; trust: TrustState[] };

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** A date as the configuration file writes it. */
export function dateText(date: Date | string): string {
  const iso = new Date(date).toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

const dateOrNull = (date: Date | string | null | undefined) => (date == null ? null : dateText(date));

/** Each version the file lists, with its document read (`documents` by `slug` then version). */
function desiredVersions(api: ConfigApi, documents: ReadonlyMap<string, string | null>): VersionState[] | undefined {
  return api.versions
    ?.map((entry) => ({
      version: entry.version,
      status: entry.status,
      openapiDocument: documents.get(`${api.slug} ${entry.version}`) ?? null,
      ...(entry.deprecatedAt === undefined && (entry.status === "deprecated" || entry.status === "retired")
        ? {}
        : { deprecatedAt: dateOrNull(entry.deprecatedAt) }),
      sunsetAt: dateOrNull(entry.sunsetAt),
      ...(entry.changelog ? { changelog: entry.changelog } : {}),
    }))
    .sort(compareVersions);
}

/**
 * What the file asks for, with its OpenAPI documents and guides read and validated
 * (`readConfigFile`): `documents` holds each API's by slug, and each version's by `slug version`.
 */
export function desiredState(file: ConfigFile, documents: ReadonlyMap<string, string | null>, guides: ReadonlyMap<string, Guide[]> = new Map()): GatewayState {
  return {
    environments: file.environments,
    plans: file.plans,
    apis: file.apis.map(({ openapi: _, guides: __, versions: ___, scopes, policies, routes, mcp, ...api }, index) => {
      const versions = desiredVersions(file.apis[index]!, documents);
      return {
        ...api,
        policies: policies ?? {},
        routes: routes ?? {},
        mcp: mcp ?? MCP_OFF,
        guides: guides.get(api.slug),
        tags: [...new Set(api.tags)],
        scopes: scopes.map((scope) => (typeof scope === "string" ? { name: scope, description: scope } : scope)).sort(byName),
        ...(versions ? { versions } : { openapiDocument: documents.get(api.slug) ?? null }),
      };
    }),
    trust: file.trust,
  };
}

/** The API's policies as the file states them, none as empty. */
function storedPolicies(column: unknown): { policies: PolicySet; routes: Record<string, PolicySet> } {
  const stored = storedApiPolicies(column);
  return { policies: stored.policies ?? {}, routes: stored.routes ?? {} };
}

/** Every environment, and every proxied API with its upstreams; built-in APIs are not configuration. */
export async function currentState(db: DbClient): Promise<GatewayState> {
  const [environments, plans, apis, federated] = await Promise.all([
    db.environment.findMany({ orderBy: [{ position: "asc" }, { slug: "asc" }] }),
    db.plan.findMany({ orderBy: [{ position: "asc" }, { slug: "asc" }] }),
    db.api.findMany({
      where: { kind: "PROXY" },
      orderBy: { slug: "asc" },
      include: {
        scopes: true,
        versions: true,
        environments: { include: { environment: { select: { slug: true } } } },
        plans: { orderBy: { position: "asc" }, select: { plan: { select: { slug: true } } } },
      },
    }),
    db.credential.findMany({
      where: { authMethod: "FEDERATED", status: "ACTIVE" },
      orderBy: { clientId: "asc" },
      select: { clientId: true, trustIssuer: true, trustAudience: true, trustSubject: true },
    }),
  ]);
  return {
    environments: environments.map((env) => ({
      slug: env.slug,
      name: env.name,
      credentialType: env.credentialType,
      selfService: env.selfService,
      tokenLifetimeSeconds: env.tokenLifetimeSeconds,
      requireDpop: env.requireDpop,
      dpopNonce: env.dpopNonce,
      rateLimit: { burst: env.rateLimitBurst, perSecond: env.rateLimitPerSecond },
    })),
    plans: plans.map((plan) => ({
      slug: plan.slug,
      name: plan.name,
      description: plan.description,
      rateLimit: { burst: plan.rateLimitBurst, perSecond: plan.rateLimitPerSecond },
      quota: { requests: plan.quotaRequests, period: plan.quotaPeriod },
      approval: plan.approval,
    })),
    apis: apis.map((api) => ({
      ...storedPolicies(api.policies),
      mcp: storedMcpSettings(api.mcp),
      slug: api.slug,
      name: api.name,
      summary: api.summary,
      description: api.description,
      version: api.version,
      tags: api.tags as string[],
      visibility: api.isPublic ? "public" : "protected",
      credentialType: api.credentialType,
      authentication: [...storedAuthentication(api.authentication)],
      plans: api.plans.map((offered) => offered.plan.slug),
      scopes: api.scopes.map((scope) => ({ name: scope.name, description: scope.description })).sort(byName),
      openapiDocument: api.openapiDocument,
      changelog: api.changelog as ChangelogEntry[],
      guides: storedGuidesSchema.parse(api.guides),
      versions: api.versions
        .map((version) => ({
          version: version.version,
          status: version.status,
          openapiDocument: version.openapiDocument,
          deprecatedAt: dateOrNull(version.deprecatedAt),
          sunsetAt: dateOrNull(version.sunsetAt),
          changelog: version.changelog as ChangelogEntry[],
        }))
        .sort(compareVersions),
      environments: Object.fromEntries(
        api.environments.flatMap((served) => {
          const policy = upstreamPolicySchema.safeParse(served.upstream).data;
          return policy ? [[served.environment.slug, policy]] : [];
        }),
      ),
    })),
    trust: federated.map((row) => ({
      client: row.clientId,
      issuer: row.trustIssuer ?? "",
      audience: row.trustAudience ?? "",
      subject: row.trustSubject ?? "",
    })),
  };
}
