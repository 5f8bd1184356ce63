import "server-only";
import { z } from "zod";
import { listPlans, listSubscriptions } from "../subscriptions/list-subscriptions";
import { newSubscriptionSchema, subscribe } from "../subscriptions/subscribe";
import { INVALID, jsonAnswer, jsonBody, ok, operation, parse } from "./operation-kit";

// `/api/v1/plans` and `/api/v1/subscriptions`: the plans APIs offer, and the subscriptions of the applications of the caller's teams.

const period = z.enum(["hour", "day", "month"]);
const planSchema = z.object({
  slug: z.string().max(200),
  name: z.string().max(200),
  description: z.string().max(200),
  rateLimit: z.object({ burst: z.int32().min(0).meta({ format: "int32" }), perSecond: z.int32().min(0).meta({ format: "int32" }) }),
  quota: z.object({ requests: z.int32().min(0).meta({ format: "int32" }), period }).meta({ description: "Requests per calendar period in UTC." }),
  approval: z.enum(["auto", "manual"]).meta({ description: "`auto`: a subscription applies at once; `manual`: it waits for an admin's approval." }),
  apis: z.array(z.string().max(200)).max(1000).meta({ description: "The slugs of the APIs that offer the plan." }),
});
const planListSchema = z.object({ plans: z.array(planSchema).max(1000) });
const planQuerySchema = z.strictObject({ api: z.string().max(60).optional().meta({ description: "Only the plans this API offers, in its order." }) });

const subscriptionSchema = z.object({
  id: z.string().max(200).meta({ description: "The subscription's id (`sub_…`)." }),
  application: z.string().max(200),
  applicationId: z.string().max(200),
  environment: z.string().max(200),
  api: z.string().max(200),
  plan: z.string().max(200),
  quota: z.object({ requests: z.int32().min(0).meta({ format: "int32" }), period }),
  usage: z.object({
    used: z.int32().min(0).meta({ format: "int32" }),
    remaining: z.int32().min(0).meta({ format: "int32" }),
    periodStart: z.iso.datetime().max(40),
    periodEnd: z.iso.datetime().max(40).meta({ description: "When the next period starts and the count starts again from 0." }),
  }),
  pending: z
    .object({ requestId: z.string().max(200), plan: z.string().max(200) })
    .nullable()
    .meta({ description: "A change of plan waiting for an admin." }),
  createdAt: z.iso.datetime().max(40),
});
const subscriptionListSchema = z.object({ subscriptions: z.array(subscriptionSchema).max(100_000) });
const subscribedSchema = z.object({
  status: z.enum(["active", "pending"]).meta({ description: "`pending`: the request waits in the access-request queue; the current plan, if any, holds." }),
  subscriptionId: z.string().max(200).nullable(),
  requestId: z.string().max(200).nullable(),
  application: z.string().max(200),
  environment: z.string().max(200),
  api: z.string().max(200),
  plan: z.string().max(200),
});

const NO_SUBSCRIBABLE = {
  code: "not-found",
  description: "No application of a team where you are admin has this id or name, or there is no such API or environment.",
  detail: 'There is no application "app_…" you administer.',
} as const;
const NOT_OFFERED = {
  code: "plan-not-offered",
  description: "The API does not offer this plan, or is not offered in this environment.",
  detail: 'The API "orders" offers no plan "gold".',
} as const;
const PENDING = {
  code: "subscription-pending",
  description: "A change of this subscription already waits for an admin.",
  detail: "The request req_… for this subscription is waiting for an administrator.",
} as const;

export const SUBSCRIPTION_OPERATIONS = [
  operation({
    id: "listPlans",
    method: "GET",
    path: "/plans",
    scope: "credentials:read",
    tags: ["Subscriptions"],
    summary: "List the plans",
    query: planQuerySchema,
    responses: () => ({ "200": jsonAnswer("Every plan with its limits and the APIs that offer it.", planListSchema) }),
    problems: [INVALID],
    handle: async ({ db, query }) => ok({ plans: await listPlans({ db, apiSlug: parse(planQuerySchema, query, "query").api }) }),
  }),
  operation({
    id: "listSubscriptions",
    method: "GET",
    path: "/subscriptions",
    scope: "credentials:read",
    tags: ["Subscriptions"],
    summary: "List your applications' subscriptions",
    responses: () => ({ "200": jsonAnswer("Each subscription with the quota used and left in its current period.", subscriptionListSchema) }),
    handle: async ({ db, caller }) => ok({ subscriptions: await listSubscriptions({ db, viewer: caller.user }) }),
  }),
  operation({
    id: "createSubscription",
    method: "POST",
    path: "/subscriptions",
    scope: "credentials:write",
    tags: ["Subscriptions"],
    summary: "Subscribe an application to a plan",
    description:
      "An `auto` plan applies at once (201, `active`); a `manual` one becomes an access request (202, `pending`) and the plan the application had holds until an admin decides. You need the admin role in the application's team.",
    requestBody: jsonBody(newSubscriptionSchema),
    responses: () => ({
      "201": jsonAnswer("The subscription applies now.", subscribedSchema),
      "202": jsonAnswer("The subscription waits for an admin.", subscribedSchema),
    }),
    problems: [INVALID, NO_SUBSCRIBABLE, NOT_OFFERED, PENDING],
    handle: async ({ db, caller, body }) => {
      const outcome = await subscribe({ db, by: { user: caller.user, actor: caller.actor }, subscription: body });
      return ok(outcome, outcome.status === "pending" ? 202 : 201);
    },
  }),
];
