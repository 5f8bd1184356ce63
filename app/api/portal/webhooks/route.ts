import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/endpoints";

export const GET = portalRoute(async ({ request, user }) => {
  const teamId = new URL(request.url).searchParams.get("team") ?? "";
  return json({ endpoints: await listWebhookEndpoints({ db: db(), actor: actorOf(user), teamId }) });
});

export const POST = portalRoute(async ({ user, body }) => json(await createWebhookEndpoint({ db: db(), actor: actorOf(user), input: await body() }), 201));
