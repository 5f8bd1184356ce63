import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { deleteWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/endpoints";

export const PATCH = portalRoute(async ({ body, user, params }) =>
  json({
    endpoint: await updateWebhookEndpoint({
      db: db(),
      actor: actorOf(user),
      endpointId: params.endpointId ?? "",
      input: await body(),
    }),
  }),
);

export const DELETE = portalRoute(async ({ user, params }) => {
  await deleteWebhookEndpoint({ db: db(), actor: actorOf(user), endpointId: params.endpointId ?? "" });
  return json({ deleted: params.endpointId });
});
