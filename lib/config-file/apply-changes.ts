import "server-only";
import { type Actor, recordAudit } from "../audit/write-audit";
import { type Db, inTransaction, type Tx } from "../db";
import { newId } from "../ids";
import { announceDeprecations, documentLabel, firstVersion, replaceVersions, setCurrentDocument, type VersionSpec } from "../api-lifecycle/versions";
import { trustIssuer } from "../credentials/credentials";
import { setApiMcp } from "../gateway/mcp/set-api-mcp";
import { setApiAuthentication } from "../gateway/policies/authentication/set-api-authentication";
import { DEFAULT_AUTHENTICATION } from "../gateway/policies/authentication/schema";
import { setApiPolicies } from "../gateway/policies/set-api-policies";
import type { ApiState, GatewayState } from "./gateway-state";
import type { ConfigChange } from "./plan";

function environmentData(env: GatewayState["environments"][number]) {
  const { rateLimit, ...settings } = env;
  return { ...settings, rateLimitBurst: rateLimit.burst, rateLimitPerSecond: rateLimit.perSecond };
}

/** The version the catalog shows: the file's, else the current version's document's, else its path segment. */
function versionLabel(api: ApiState): string {
  const current = api.versions?.find((version) => version.status === "current") ?? api.versions?.at(-1);
  return api.version ?? documentLabel(current?.openapiDocument ?? null) ?? current?.version ?? "v1";
}

function versionSpecs(api: ApiState): VersionSpec[] | undefined {
  return api.versions?.map(({ deprecatedAt, sunsetAt, ...version }) => ({
    ...version,
    ...(deprecatedAt === undefined ? {} : { deprecatedAt: deprecatedAt === null ? null : new Date(deprecatedAt) }),
    sunsetAt: sunsetAt === null ? null : new Date(sunsetAt),
  }));
}

function apiData(api: ApiState) {
  return {
    name: api.name,
    summary: api.summary,
    description: api.description,
    version: versionLabel(api),
    tags: api.tags,
    isPublic: api.visibility === "public",
    credentialType: api.credentialType,
    ...(api.openapiDocument === undefined ? {} : { openapiDocument: api.openapiDocument }),
    ...(api.changelog ? { changelog: api.changelog } : {}),
    ...(api.guides ? { guides: api.guides } : {}),
  };
}

function planData(plan: GatewayState["plans"][number]) {
  const { slug, rateLimit, quota, ...fields } = plan;
  return { ...fields, rateLimitBurst: rateLimit.burst, rateLimitPerSecond: rateLimit.perSecond, quotaRequests: quota.requests, quotaPeriod: quota.period };
}

/** The API's scopes, environments and plans made to match the file: scopes by name, upstreams and plans written whole. */
async function writeApiChildren(tx: Tx, apiId: string, api: ApiState, environmentIds: ReadonlyMap<string, string>): Promise<void> {
  await tx.apiScope.deleteMany({ where: { apiId, name: { notIn: api.scopes.map((scope) => scope.name) } } });
  for (const scope of api.scopes) {
    await tx.apiScope.upsert({ where: { apiId_name: { apiId, name: scope.name } }, create: { apiId, ...scope }, update: { description: scope.description } });
  }
  await tx.apiEnvironment.deleteMany({ where: { apiId } });
  await tx.apiEnvironment.createMany({
    data: Object.entries(api.environments).map(([env, upstream]) => ({ apiId, environmentId: environmentIds.get(env)!, upstream })),
  });
  const planIds = new Map(
    (await tx.plan.findMany({ where: { slug: { in: api.plans } }, select: { id: true, slug: true } })).map((plan) => [plan.slug, plan.id]),
  );
  await tx.apiPlan.deleteMany({ where: { apiId } });
  await tx.apiPlan.createMany({ data: api.plans.map((slug, position) => ({ apiId, planId: planIds.get(slug)!, position })) });
}

/** A new API with MCP settings, or an API whose MCP settings the plan changes: written after its versions, whose documents name the operations. */
function mcpChanged(change: ConfigChange, api: ApiState): boolean {
  if (change.action === "create") return api.mcp.enabled || Object.keys(api.mcp).length > 1;
  return change.action === "update" && change.fields.includes("mcp");
}

/** A new API that accepts more or other than OAuth tokens, or an API whose methods the plan changes. */
function authenticationChanged(change: ConfigChange, api: ApiState): boolean {
  if (change.action === "create") return api.authentication.join(" ") !== DEFAULT_AUTHENTICATION.join(" ");
  return change.action === "update" && change.fields.includes("authentication");
}

/** A new API with policies, or an API whose policies or routes the plan changes: written after its versions, whose documents name the routes. */
function policiesChanged(change: ConfigChange, api: ApiState): boolean {
  if (change.action === "create") return Object.keys(api.policies).length > 0 || Object.keys(api.routes).length > 0;
  return change.action === "update" && change.fields.some((field) => field === "policies" || field === "routes");
}

/**
 * How long the apply's transaction may run: Prisma's default of 5 s is for a request's
 * writes, and an operator's apply of many APIs and documents on a busy database can take longer.
 */
const APPLY_TIMEOUT_MS = 60_000;

/** Applies a plan in one transaction, audited as one event that lists every change. */
export async function applyChanges(input: { db: Db; actor: Actor; desired: GatewayState; changes: readonly ConfigChange[]; source: string }): Promise<void> {
  const { db, actor, desired, changes, source } = input;
  const environments = new Map(desired.environments.map((env) => [env.slug, env]));
  const plans = new Map(desired.plans.map((plan) => [plan.slug, plan]));
  const apis = new Map(desired.apis.map((api) => [api.slug, api]));
  const trusts = new Map(desired.trust.map((trust) => [trust.client, trust]));
  const deprecated = await inTransaction(
    db,
    async (tx) => {
      const deprecatedVersions: string[] = [];
      let position = await tx.environment.count();
      for (const change of changes.filter((change) => change.kind === "environment" && change.action !== "delete")) {
        const data = environmentData(environments.get(change.slug)!);
        if (change.action === "create") await tx.environment.create({ data: { id: newId("env"), position: position++, ...data } });
        else await tx.environment.update({ where: { slug: change.slug }, data });
      }
      let planPosition = await tx.plan.count();
      for (const change of changes.filter((change) => change.kind === "plan" && change.action !== "delete")) {
        const data = planData(plans.get(change.slug)!);
        if (change.action === "create") await tx.plan.create({ data: { id: newId("plan"), slug: change.slug, position: planPosition++, ...data } });
        else await tx.plan.update({ where: { slug: change.slug }, data });
      }
      const environmentIds = new Map((await tx.environment.findMany({ select: { id: true, slug: true } })).map((env) => [env.slug, env.id]));
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      for (const change of changes.filter((change) => change.kind === "api")) {
        if (change.action === "delete") {
          await tx.api.delete({ where: { slug: change.slug } });
          continue;
        }
        const api = apis.get(change.slug)!;
        const specs = versionSpecs(api);
        const changelog = [{ version: versionLabel(api), date: today, notes: "Registered from the configuration file." }];
        const saved =
          change.action === "create"
            ? await tx.api.create({
                data: {
                  id: newId("api"),
                  slug: api.slug,
                  kind: "PROXY",
                  changelog,
                  ...apiData(api),
                  ...(specs ? {} : { versions: firstVersion({ openapiDocument: api.openapiDocument ?? null, changelog }) }),
                },
              })
            : await tx.api.update({ where: { slug: change.slug }, data: apiData(api) });
        if (specs) deprecatedVersions.push(...(await replaceVersions(tx, saved.id, specs, now)));
        else if (change.action === "update") await setCurrentDocument(tx, saved.id, api.openapiDocument ?? null);
        await writeApiChildren(tx, saved.id, api, environmentIds);
        if (authenticationChanged(change, api)) await setApiAuthentication({ db: tx, actor, slug: api.slug, input: { authentication: api.authentication } });
        if (mcpChanged(change, api)) await setApiMcp({ db: tx, actor, slug: api.slug, mcp: api.mcp });
        if (policiesChanged(change, api)) await setApiPolicies({ db: tx, actor, slug: api.slug, policies: { policies: api.policies, routes: api.routes } });
      }
      for (const change of changes.filter((change) => change.kind === "plan" && change.action === "delete")) {
        await tx.plan.delete({ where: { slug: change.slug } });
      }
      for (const change of changes.filter((change) => change.kind === "environment" && change.action === "delete")) {
        await tx.environment.delete({ where: { slug: change.slug } });
      }
      for (const change of changes.filter((change) => change.kind === "trust")) {
        const { client: clientId, ...trust } = trusts.get(change.slug)!;
        await trustIssuer({ db: tx, actor, clientId, trust });
      }
      await recordAudit(tx, actor, { action: "config.apply", targetType: "config", targetId: source, details: { changes } });
      return deprecatedVersions;
    },
    { timeoutMs: APPLY_TIMEOUT_MS },
  );
  await announceDeprecations(
    db,
    deprecated.map((id) => ({ kind: "version", id })),
  );
}
