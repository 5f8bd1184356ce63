import "server-only";
import type { Actor } from "../audit/write-audit";
import type { Db, DbClient } from "../db";
import { applyChanges } from "./apply-changes";
import { currentState, type GatewayState } from "./gateway-state";
import { type ConfigChange, type PlanContext, type PlanProblem, planChanges } from "./plan";

/**
 * What the database holds besides the configuration that a plan respects: the built-in APIs,
 * each environment's credentials and which of the clients `desired` trusts are active.
 */
export async function planContext(db: DbClient, desired: GatewayState, prune: boolean): Promise<PlanContext> {
  const [builtIn, credentials, environments, active, subscriptions, plans] = await Promise.all([
    db.api.findMany({ where: { kind: { not: "PROXY" } }, select: { slug: true } }),
    db.credential.groupBy({ by: ["environmentId"], _count: { _all: true } }),
    db.environment.findMany({ select: { id: true, slug: true } }),
    db.credential.findMany({ where: { clientId: { in: desired.trust.map((trust) => trust.client) }, status: "ACTIVE" }, select: { clientId: true } }),
    db.subscription.groupBy({ by: ["planId"], _count: { _all: true } }),
    db.plan.findMany({ select: { id: true, slug: true } }),
  ]);
  const planSlugs = new Map(plans.map((plan) => [plan.id, plan.slug]));
  const environmentSlugs = new Map(environments.map((env) => [env.id, env.slug]));
  return {
    builtInApis: new Set(builtIn.map((api) => api.slug)),
    credentialsByEnvironment: new Map(credentials.map((row) => [environmentSlugs.get(row.environmentId) ?? "", row._count._all])),
    activeClients: new Set(active.map((row) => row.clientId)),
    subscriptionsByPlan: new Map(subscriptions.map((row) => [planSlugs.get(row.planId) ?? "", row._count._all])),
    prune,
  };
}

/** The plan that makes the database match `desired`, against the database as it is. */
export async function planDesired(
  db: DbClient,
  desired: GatewayState,
  prune: boolean,
  namedEnvironments?: ReadonlySet<string>,
): Promise<{ changes: ConfigChange[]; problems: PlanProblem[] }> {
  const [current, context] = await Promise.all([currentState(db), planContext(db, desired, prune)]);
  return planChanges(current, desired, { ...context, namedEnvironments });
}

/**
 * Plans and applies `desired` as `config apply` does without `--prune`, in one audited
 * transaction; a plan with problems changes nothing and returns them.
 */
export async function applyDesired(input: {
  db: Db;
  actor: Actor;
  desired: GatewayState;
  source: string;
}): Promise<{ changes: ConfigChange[]; problems: PlanProblem[] }> {
  const { db, actor, desired, source } = input;
  const plan = await planDesired(db, desired, false);
  if (plan.problems.length === 0 && plan.changes.length > 0) await applyChanges({ db, actor, desired, changes: plan.changes, source });
  return plan;
}
