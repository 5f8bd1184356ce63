import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { replayWebhookDelivery } from "@/lib/webhooks/deliveries";

export const POST = portalRoute(async ({ user, params }) =>
  json(
    { delivery: await replayWebhookDelivery({ db: db(), actor: actorOf(user), endpointId: params.endpointId ?? "", deliveryId: params.deliveryId ?? "" }) },
    202,
  ),
);
