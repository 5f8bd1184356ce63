import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { webhookDeliveries } from "@/lib/webhooks/deliveries";

export const GET = portalRoute(async ({ user, params }) =>
  json({ deliveries: await webhookDeliveries({ db: db(), actor: actorOf(user), endpointId: params.endpointId ?? "" }) }),
);
