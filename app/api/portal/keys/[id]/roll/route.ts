import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { rollApiKey } from "@/lib/credentials/api-keys";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user, params }) =>
  json(await rollApiKey({ db: db(), actor: actorOf(user), viewer: { userId: user.id }, id: params.id ?? "", input: await body() }), 201),
);
