import { revokeAccessToken } from "@/lib/access-tokens/access-tokens";
import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ user, params }) =>
  json(await revokeAccessToken({ db: db(), actor: actorOf(user), id: params.id ?? "", userId: user.id })),
);
