import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { rotateWebhookSecret } from "@/lib/webhooks/endpoints";

export const POST = portalRoute(async ({ user, params }) =>
  json(await rotateWebhookSecret({ db: db(), actor: actorOf(user), endpointId: params.endpointId ?? "" })),
);
