import "server-only";
import { type Actor, recordAudit } from "../../audit/write-audit";
import { type DbClient, inTransaction } from "../../db";
import { problem, validationProblem, zodProblem } from "../../http/problem";
import { type ApiPolicies, apiPoliciesSchema, NO_POLICIES } from "./policy-set";
import { unknownRoutes } from "./route-keys";

/** The policies as stored: the API's own and the routes' left out when empty. */
function stored(policies: ApiPolicies): ApiPolicies {
  const hasOwn = Object.keys(policies.policies ?? {}).length > 0;
  const hasRoutes = Object.keys(policies.routes ?? {}).length > 0;
  return { ...(hasOwn ? { policies: policies.policies } : {}), ...(hasRoutes ? { routes: policies.routes } : {}) };
}

async function proxiedApi(db: DbClient, slug: string) {
  const api = await db.api.findUnique({
    where: { slug },
    select: { id: true, kind: true, policies: true, versions: { select: { version: true, openapiDocument: true } } },
  });
  if (!api) throw problem("not-found", { detail: `There is no API "${slug}".` });
  if (api.kind !== "PROXY") throw validationProblem([{ in: "path", field: "slug", message: `"${slug}" is a built-in API: policies apply to proxied APIs` }]);
  return api;
}

/** `GET /v1/items` before `POST /v1/items` before `GET /v1/items/{id}`: by path template, then method. */
function byRoute([a]: [string, unknown], [b]: [string, unknown]): number {
  const [methodA = "", pathA = ""] = a.split(" ");
  const [methodB = "", pathB = ""] = b.split(" ");
  return pathA.localeCompare(pathB) || methodA.localeCompare(methodB);
}

/**
 * The `Api.policies` column read: none when it holds none, or what no write would have stored
 * (a column edited by hand), as the gateway reads it. Routes come in one order on either
 * database: PostgreSQL's jsonb keeps keys in an order of its own.
 */
export function storedApiPolicies(column: unknown): ApiPolicies {
  const stored = apiPoliciesSchema.safeParse(column ?? NO_POLICIES).data ?? NO_POLICIES;
  return stored.routes ? { ...stored, routes: Object.fromEntries(Object.entries(stored.routes).sort(byRoute)) } : stored;
}

/** A proxied API's policies as stored. */
export async function apiPolicies({ db, slug }: { db: DbClient; slug: string }): Promise<ApiPolicies> {
  return storedApiPolicies((await proxiedApi(db, slug)).policies);
}

/**
 * Sets a proxied API's policies (`{ policies, routes }`, lib/gateway/policies/policy-set.ts),
 * replacing those it had: the console, /api/v1 and the configuration file all write them here.
 * Every route key must name an operation of one of the API's versions' documents. Audited as
 * `api.policies`, in the caller's transaction when `db` is one.
 */
export async function setApiPolicies(input: { db: DbClient; actor: Actor; slug: string; policies: unknown }): Promise<ApiPolicies> {
  const { db, actor, slug } = input;
  const parsed = apiPoliciesSchema.safeParse(input.policies ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const api = await proxiedApi(db, slug);
  const unknown = unknownRoutes(parsed.data, api.versions);
  if (unknown.length > 0) throw validationProblem(unknown.map(({ key, message }) => ({ in: "body", field: `routes.${key}`, message })));
  const policies = stored(parsed.data);
  await inTransaction(db, async (tx) => {
    await tx.api.update({ where: { id: api.id }, data: { policies } });
    await recordAudit(tx, actor, {
      action: "api.policies",
      targetType: "api",
      targetId: slug,
      details: { policies: Object.keys(policies.policies ?? {}), routes: Object.keys(policies.routes ?? {}) },
    });
  });
  return policies;
}
