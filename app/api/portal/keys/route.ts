import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { createApiKey } from "@/lib/credentials/api-keys";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user }) =>
  json(await createApiKey({ db: db(), actor: actorOf(user), viewer: { userId: user.id }, input: await body() }), 201),
);
