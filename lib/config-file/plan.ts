import { unknownRoutes, type VersionDocument } from "../gateway/policies/route-keys";
import type { ConfigPath } from "./read-config-file";
import type { ApiState, EnvironmentState, GatewayState, PlanState, TrustState, VersionState } from "./gateway-state";

export type ConfigKind = "environment" | "plan" | "api" | "trust";

export type ConfigChange =
  | { action: "create" | "delete"; kind: ConfigKind; slug: string }
  | { action: "update"; kind: ConfigKind; slug: string; fields: string[] };

export type PlanProblem = { path: ConfigPath; message: string };

/** What the database holds besides the configuration, that a plan must respect. */
export type PlanContext = {
  /** slugs of the built-in APIs, which the file cannot take */
  builtInApis: ReadonlySet<string>;
  /** credentials per environment slug: an environment that has some is not pruned */
  credentialsByEnvironment: ReadonlyMap<string, number>;
  /** subscriptions per plan slug: a plan that has some is not pruned */
  subscriptionsByPlan: ReadonlyMap<string, number>;
  /** the client ids of active credentials, which alone can trust an issuer */
  activeClients: ReadonlySet<string>;
  prune: boolean;
  /** environments the file names in entries that failed its schema: known, and never reported as left out */
  namedEnvironments?: ReadonlySet<string>;
};

/** JSON with every object's keys in order: PostgreSQL's jsonb keeps them in an order of its own. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

function changedFields<T extends object>(current: T, desired: T, skip: ReadonlySet<string> = new Set()): string[] {
  return (Object.keys(desired) as (keyof T & string)[]).filter((key) => !skip.has(key) && desired[key] !== undefined && !same(current[key], desired[key]));
}

/** `versions.v2` for a version added or removed, `versions.v1.status` for a field of one changed. */
function versionFields(current: readonly VersionState[] | undefined, desired: readonly VersionState[] | undefined): string[] {
  if (!desired) return [];
  const was = new Map((current ?? []).map((version) => [version.version, version]));
  const wanted = new Set(desired.map((version) => version.version));
  return [
    ...desired.flatMap((version) => {
      const before = was.get(version.version);
      return before ? changedFields(before, version).map((field) => `versions.${version.version}.${field}`) : [`versions.${version.version}`];
    }),
    ...[...was.keys()].filter((version) => !wanted.has(version)).map((version) => `versions.${version}`),
  ];
}

function apiFields(current: ApiState, desired: ApiState): string[] {
  const fields = [...changedFields(current, desired, new Set(["environments", "versions"])), ...versionFields(current.versions, desired.versions)];
  const envs = new Set([...Object.keys(current.environments), ...Object.keys(desired.environments)]);
  for (const env of [...envs].sort()) {
    const [was, wanted] = [current.environments[env], desired.environments[env]];
    if (!was || !wanted) fields.push(`environments.${env}`);
    else fields.push(...changedFields(was, wanted).map((field) => `environments.${env}.${field}`));
  }
  return fields;
}

/**
 * The documents the API will have once applied: the versions the file lists, else the one
 * document it gives, which replaces the current version's, beside the versions it keeps.
 */
function documentsAfter(current: ApiState | undefined, desired: ApiState): VersionDocument[] {
  if (desired.versions) return desired.versions;
  const kept = current?.versions ?? [];
  const replaced = kept.find((version) => version.status === "current");
  return [{ version: replaced?.version ?? "v1", openapiDocument: desired.openapiDocument ?? null }, ...kept.filter((version) => version !== replaced)];
}

function duplicates(slugs: readonly string[], list: string): PlanProblem[] {
  return slugs.flatMap((slug, index) => (slugs.indexOf(slug) < index ? [{ path: [list, index, "slug"], message: `"${slug}" is listed twice` }] : []));
}

function diff<T extends { slug: string }>(
  kind: ConfigKind,
  current: readonly T[],
  desired: readonly T[],
  fields: (a: T, b: T) => string[],
  prune: boolean,
): ConfigChange[] {
  const existing = new Map(current.map((item) => [item.slug, item]));
  const wanted = new Set(desired.map((item) => item.slug));
  const changes: ConfigChange[] = [];
  for (const item of desired) {
    const was = existing.get(item.slug);
    if (!was) changes.push({ action: "create", kind, slug: item.slug });
    else {
      const changed = fields(was, item);
      if (changed.length > 0) changes.push({ action: "update", kind, slug: item.slug, fields: changed });
    }
  }
  if (prune) for (const item of current) if (!wanted.has(item.slug)) changes.push({ action: "delete", kind, slug: item.slug });
  return changes;
}

/**
 * The changes that make the database match the file, or what stops them. Objects the
 * file leaves out stay unless `prune` is set; an environment with credentials stays even so.
 */
export function planChanges(current: GatewayState, desired: GatewayState, context: PlanContext): { changes: ConfigChange[]; problems: PlanProblem[] } {
  const problems = [
    ...duplicates(
      desired.environments.map((env) => env.slug),
      "environments",
    ),
    ...duplicates(
      desired.plans.map((plan) => plan.slug),
      "plans",
    ),
    ...duplicates(
      desired.apis.map((api) => api.slug),
      "apis",
    ),
    ...duplicates(
      desired.trust.map((trust) => trust.client),
      "trust",
    ),
  ];
  const fileEnvironments = new Set(desired.environments.map((env) => env.slug));
  const named = context.namedEnvironments ?? new Set<string>();
  const known = new Set([...fileEnvironments, ...named, ...(context.prune ? [] : current.environments.map((env) => env.slug))]);
  const currentApis = new Map(current.apis.map((api) => [api.slug, api]));
  const knownPlans = new Set([...desired.plans.map((plan) => plan.slug), ...(context.prune ? [] : current.plans.map((plan) => plan.slug))]);
  desired.apis.forEach((api, index) => {
    api.plans.forEach((plan, position) => {
      if (!knownPlans.has(plan))
        problems.push({ path: ["apis", index, "plans", position], message: `there is no plan "${plan}"${context.prune ? " in the file" : ""}` });
      if (api.plans.indexOf(plan) < position) problems.push({ path: ["apis", index, "plans", position], message: `"${plan}" is listed twice` });
    });
    for (const { key, message } of unknownRoutes({ routes: api.routes }, documentsAfter(currentApis.get(api.slug), api)))
      problems.push({ path: ["apis", index, "routes", key], message });
    if (context.builtInApis.has(api.slug))
      problems.push({ path: ["apis", index, "slug"], message: `"${api.slug}" is a built-in API, which the file cannot configure` });
    for (const env of Object.keys(api.environments)) {
      if (!known.has(env))
        problems.push({ path: ["apis", index, "environments", env], message: `there is no environment "${env}"${context.prune ? " in the file" : ""}` });
    }
  });
  desired.trust.forEach((trust, index) => {
    if (!context.activeClients.has(trust.client))
      problems.push({ path: ["trust", index, "client"], message: `there is no active credential "${trust.client}"` });
  });
  const bySlug = (trust: readonly TrustState[]) => trust.map((entry) => ({ slug: entry.client, ...entry }));
  const changes = [
    ...diff<EnvironmentState>("environment", current.environments, desired.environments, changedFields, context.prune),
    ...diff<PlanState>("plan", current.plans, desired.plans, changedFields, context.prune),
    ...diff<ApiState>("api", current.apis, desired.apis, apiFields, context.prune),
    // A credential's trust is never pruned: a federated credential left out of the file would have no way in.
    ...diff("trust", bySlug(current.trust), bySlug(desired.trust), changedFields, false),
  ];
  for (const change of changes) {
    const subscriptions = context.subscriptionsByPlan.get(change.slug) ?? 0;
    if (change.kind === "plan" && change.action === "delete" && subscriptions > 0) {
      problems.push({
        path: ["plans"],
        message: `plan "${change.slug}" is not in the file but has ${subscriptions} subscription(s); keep it in the file or move them to another plan first`,
      });
    }
    const credentials = context.credentialsByEnvironment.get(change.slug) ?? 0;
    if (change.kind === "environment" && change.action === "delete" && credentials > 0 && !named.has(change.slug)) {
      problems.push({
        path: ["environments"],
        message: `environment "${change.slug}" is not in the file but has ${credentials} credential(s); keep it in the file or revoke and delete them first`,
      });
    }
  }
  return { changes, problems };
}

/** One line per change: `create api orders`, `update environment sso-qa: name, rateLimit`. */
export function describeChange(change: ConfigChange): string {
  return `${change.action} ${change.kind} ${change.slug}${change.action === "update" ? `: ${change.fields.join(", ")}` : ""}`;
}
