import "server-only";
import type { PortalUser } from "../actors/portal-user";
import type { DbClient } from "../db";
import { teamApplicationsOf } from "../teams/team-access";
import { type QuotaUsage, quotaUsage } from "./quota-usage";

export type PlanSummary = {
  slug: string;
  name: string;
  description: string;
  rateLimit: { burst: number; perSecond: number };
  quota: { requests: number; period: "hour" | "day" | "month" };
  approval: "auto" | "manual";
  /** the APIs that offer it, by slug */
  apis: string[];
};

type PlanRow = {
  slug: string;
  name: string;
  description: string;
  rateLimitBurst: number;
  rateLimitPerSecond: number;
  quotaRequests: number;
  quotaPeriod: "hour" | "day" | "month";
  approval: "auto" | "manual";
};

function planSummary(plan: PlanRow, apis: string[]): PlanSummary {
  return {
    slug: plan.slug,
    name: plan.name,
    description: plan.description,
    rateLimit: { burst: plan.rateLimitBurst, perSecond: plan.rateLimitPerSecond },
    quota: { requests: plan.quotaRequests, period: plan.quotaPeriod },
    approval: plan.approval,
    apis,
  };
}

/** Every plan, in the configuration file's order, with the APIs that offer it; or only those `apiSlug` offers, in its order. */
export async function listPlans(input: { db: DbClient; apiSlug?: string }): Promise<PlanSummary[]> {
  const { db, apiSlug } = input;
  if (apiSlug) {
    const offered = await db.apiPlan.findMany({ where: { api: { slug: apiSlug } }, orderBy: { position: "asc" }, include: { plan: true } });
    return offered.map((row) => planSummary(row.plan, [apiSlug]));
  }
  const plans = await db.plan.findMany({
    orderBy: [{ position: "asc" }, { slug: "asc" }],
    include: { apis: { select: { api: { select: { slug: true } } }, orderBy: { api: { slug: "asc" } } } },
  });
  return plans.map((plan) =>
    planSummary(
      plan,
      plan.apis.map((row) => row.api.slug),
    ),
  );
}

export type SubscriptionSummary = {
  id: string;
  application: string;
  applicationId: string;
  environment: string;
  api: string;
  plan: string;
  quota: { requests: number; period: "hour" | "day" | "month" };
  usage: QuotaUsage;
  /** a change of plan waiting for an admin: its request and the plan asked for */
  pending: { requestId: string; plan: string } | null;
  createdAt: string;
};

/**
 * Subscriptions with their quota's use in the current period: those of the applications of the
 * user's teams, or every one for the operator (the console and the admin CLI), optionally of one plan.
 */
export async function listSubscriptions(input: { db: DbClient; viewer: PortalUser | "operator"; plan?: string }): Promise<SubscriptionSummary[]> {
  const { db, viewer } = input;
  const applications = viewer === "operator" ? {} : teamApplicationsOf(viewer.id);
  const [subscriptions, pending] = await Promise.all([
    db.subscription.findMany({
      where: { application: applications, ...(input.plan ? { plan: { slug: input.plan } } : {}) },
      orderBy: { createdAt: "asc" },
      include: {
        application: { select: { name: true } },
        environment: { select: { slug: true } },
        api: { select: { slug: true } },
        plan: { select: { slug: true, quotaRequests: true, quotaPeriod: true } },
      },
    }),
    db.accessRequest.findMany({
      where: { status: "PENDING", planId: { not: null }, application: applications },
      select: { id: true, applicationId: true, environmentId: true, apiId: true, plan: { select: { slug: true } } },
    }),
  ]);
  const usage = await quotaUsage(
    db,
    subscriptions.map((row) => ({ id: row.id, quotaRequests: row.plan.quotaRequests, quotaPeriod: row.plan.quotaPeriod })),
  );
  return subscriptions.map((row) => {
    const waiting = pending.find(
      (request) => request.applicationId === row.applicationId && request.environmentId === row.environmentId && request.apiId === row.apiId,
    );
    return {
      id: row.id,
      application: row.application.name,
      applicationId: row.applicationId,
      environment: row.environment.slug,
      api: row.api.slug,
      plan: row.plan.slug,
      quota: { requests: row.plan.quotaRequests, period: row.plan.quotaPeriod },
      usage: usage.get(row.id)!,
      pending: waiting?.plan ? { requestId: waiting.id, plan: waiting.plan.slug } : null,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

/** The applications `user` may subscribe: those of teams where they are admin or owner. */
export function subscribableApplications(db: DbClient, user: PortalUser): Promise<{ id: string; name: string }[]> {
  return db.application.findMany({ where: teamApplicationsOf(user.id, "admin"), orderBy: { name: "asc" }, select: { id: true, name: true } });
}
