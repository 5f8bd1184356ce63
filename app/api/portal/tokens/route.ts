import { createAccessToken } from "@/lib/access-tokens/access-tokens";
import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user }) =>
  json(await createAccessToken({ db: db(), actor: actorOf(user), owner: user, input: await body() }), 201),
);
