import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { recordEvent } from "../events/record-event";
import { type Actor, recordAudit } from "../audit/write-audit";
import { actorOf } from "../audit/portal-actor";
import { createCredential } from "../credentials/credentials";
import { writeGrant } from "../credentials/grants";
import { type DbClient, inTransaction, type Tx } from "../db";
import { problem, validationProblem } from "../http/problem";
import { newId } from "../ids";
import { teamApplicationsOf } from "../teams/team-access";

const slug = z.string().trim().min(1).max(60);

/** What a subscription is made of, as the portal's form, `/api/v1/subscriptions` and `subscription create` send it. */
export const newSubscriptionSchema = z
  .object({
    application: z.string().trim().min(1).max(100).meta({ description: "The application's id (app_…) or name." }),
    environment: slug.meta({ description: "The environment's slug." }),
    api: slug.meta({ description: "The API's slug." }),
    plan: slug.meta({ description: "The plan's slug; one of those the API offers." }),
  })
  .strict();

export type NewSubscription = z.infer<typeof newSubscriptionSchema>;

/** Who subscribes: a developer for an application of a team they administer, or the operator (the admin CLI) for any. */
export type Subscriber = { user: PortalUser; actor?: Actor } | { operator: Actor };

/** `active`: the plan applies now; `pending`: the change waits in the access-request queue, and the plan before it (if any) holds. */
export type SubscriptionOutcome = {
  status: "active" | "pending";
  subscriptionId: string | null;
  requestId: string | null;
  application: string;
  environment: string;
  api: string;
  plan: string;
};

async function applicationOf(db: DbClient, by: Subscriber, named: string) {
  const mine = "user" in by ? teamApplicationsOf(by.user.id, "admin") : {};
  const found = await db.application.findMany({
    where: { AND: [mine, { OR: [{ id: named }, { name: named }] }] },
    select: { id: true, name: true },
    take: 2,
  });
  // Another team's application reads as a missing one.
  if (found.length === 0) throw problem("not-found", { detail: `There is no application "${named}" you administer.` });
  if (found.length > 1) throw validationProblem([{ in: "body", field: "application", message: `several applications are named "${named}"; give its id` }]);
  return found[0]!;
}

/** The API's plan in the environment, or 422 `plan-not-offered`. */
async function offeredPlan(db: DbClient, input: NewSubscription) {
  const [environment, api, plan] = await Promise.all([
    db.environment.findUnique({ where: { slug: input.environment }, select: { id: true, slug: true, name: true } }),
    db.api.findUnique({ where: { slug: input.api }, include: { scopes: { select: { name: true } } } }),
    db.plan.findUnique({ where: { slug: input.plan } }),
  ]);
  if (!environment) throw problem("not-found", { detail: `There is no environment "${input.environment}".` });
  if (!api) throw problem("not-found", { detail: `There is no API "${input.api}".` });
  const [offered, available] = await Promise.all([
    plan ? db.apiPlan.findUnique({ where: { apiId_planId: { apiId: api.id, planId: plan.id } } }) : null,
    db.apiEnvironment.findUnique({ where: { apiId_environmentId: { apiId: api.id, environmentId: environment.id } } }),
  ]);
  if (!plan || !offered) throw problem("plan-not-offered", { detail: `The API "${api.slug}" offers no plan "${input.plan}".` });
  if (!available) throw problem("plan-not-offered", { detail: `The API "${api.slug}" is not offered in "${environment.slug}".` });
  return { environment, api, plan };
}

/**
 * Grants the API to the application's credential in the environment (creating the credential,
 * without a secret, when it has none) and sets its subscription's plan, in `tx`: what an `auto`
 * plan does at once and an approval of a `manual` one does in the approval's transaction.
 */
export async function grantSubscription(
  tx: Tx,
  actor: Actor,
  input: {
    applicationId: string;
    environment: { id: string; slug: string };
    api: { id: string; slug: string; isPublic: boolean; scopes: { name: string }[] };
    plan: { id: string; slug: string };
  },
): Promise<{ subscriptionId: string; clientId: string }> {
  const { applicationId, environment, api, plan } = input;
  const scopes = api.scopes.map((scope) => scope.name);
  let credential = await tx.credential.findFirst({ where: { applicationId, environmentId: environment.id, status: "ACTIVE" } });
  if (!credential) {
    const created = await createCredential({ db: tx, actor, applicationId, envSlug: environment.slug, scopes: [], withSecret: false });
    credential = await tx.credential.findUniqueOrThrow({ where: { clientId: created.credential.clientId } });
  }
  if (!api.isPublic) await writeGrant(tx, actor, credential, api, scopes);
  const subscription = await tx.subscription.upsert({
    where: { applicationId_environmentId_apiId: { applicationId, environmentId: environment.id, apiId: api.id } },
    create: { id: newId("sub"), applicationId, environmentId: environment.id, apiId: api.id, planId: plan.id },
    update: { planId: plan.id },
  });
  await recordAudit(tx, actor, {
    action: "subscription.set",
    targetType: "subscription",
    targetId: subscription.id,
    details: { clientId: credential.clientId, env: environment.slug, api: api.slug, plan: plan.slug },
  });
  return { subscriptionId: subscription.id, clientId: credential.clientId };
}

/**
 * Subscribes an application to an API's plan in an environment. An `auto` plan applies at once;
 * a `manual` one, or any change to it, becomes an access request that an admin decides, and the
 * plan the application had holds until then. Asking again for the plan it has changes nothing.
 */
export async function subscribe(input: { db: DbClient; by: Subscriber; subscription: unknown }): Promise<SubscriptionOutcome> {
  const { db, by } = input;
  const parsed = newSubscriptionSchema.safeParse(input.subscription);
  if (!parsed.success)
    throw validationProblem(parsed.error.issues.map((issue) => ({ in: "body" as const, field: issue.path.join("."), message: issue.message })));
  const wanted = parsed.data;
  const application = await applicationOf(db, by, wanted.application);
  const { environment, api, plan } = await offeredPlan(db, wanted);
  const actor = "operator" in by ? by.operator : (by.actor ?? actorOf(by.user));
  const outcome = { application: application.name, environment: environment.slug, api: api.slug, plan: plan.slug };
  return inTransaction(db, async (tx) => {
    const current = await tx.subscription.findUnique({
      where: { applicationId_environmentId_apiId: { applicationId: application.id, environmentId: environment.id, apiId: api.id } },
    });
    if (current?.planId === plan.id) return { status: "active", subscriptionId: current.id, requestId: null, ...outcome };
    const pending = await tx.accessRequest.findFirst({
      where: { status: "PENDING", applicationId: application.id, environmentId: environment.id, apiId: api.id, planId: { not: null } },
    });
    if (pending) throw problem("subscription-pending", { detail: `The request ${pending.id} for this subscription is waiting for an administrator.` });
    // The operator decides for itself; a developer's manual plan waits for an admin.
    if (plan.approval === "auto" || "operator" in by) {
      const { subscriptionId } = await grantSubscription(tx, actor, { applicationId: application.id, environment, api, plan });
      return { status: "active", subscriptionId, requestId: null, ...outcome };
    }
    const request = await tx.accessRequest.create({
      data: {
        id: newId("req"),
        topic: "API_ACCESS",
        requesterId: by.user.id,
        name: by.user.name,
        email: by.user.email,
        apiId: api.id,
        environmentId: environment.id,
        applicationId: application.id,
        applicationName: application.name,
        planId: plan.id,
        message: `Subscription of ${application.name} to the plan "${plan.name}" of ${api.name} in ${environment.name}.`,
      },
    });
    await recordAudit(tx, actor, {
      action: "access-request.created",
      targetType: "access-request",
      targetId: request.id,
      details: { topic: "API_ACCESS", api: api.slug, environment: environment.slug, plan: plan.slug },
    });
    await recordEvent(tx, "access_request.submitted", {
      requestId: request.id,
      topic: request.topic,
      name: request.name,
      email: request.email,
      requesterId: request.requesterId,
      api: api.slug,
      environment: environment.slug,
    });
    return { status: "pending", subscriptionId: current?.id ?? null, requestId: request.id, ...outcome };
  });
}
