import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { setApiAuthentication } from "@/lib/gateway/policies/authentication/set-api-authentication";

export const PUT = portalRoute(
  async ({ body, user, params }) => json(await setApiAuthentication({ db: db(), actor: actorOf(user), slug: params.slug ?? "", input: await body() })),
  { role: "ADMIN" },
);
