import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { listSubscriptions } from "@/lib/subscriptions/list-subscriptions";
import { subscribe } from "@/lib/subscriptions/subscribe";

export const GET = portalRoute(async ({ user }) => json({ subscriptions: await listSubscriptions({ db: db(), viewer: user }) }));

export const POST = portalRoute(async ({ body, user }) => {
  const outcome = await subscribe({ db: db(), by: { user }, subscription: await body() });
  return json(outcome, outcome.status === "pending" ? 202 : 201);
});
