import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { setApiPolicies } from "@/lib/gateway/policies/set-api-policies";

export const POST = portalRoute(
  async ({ body, user, params }) => json(await setApiPolicies({ db: db(), actor: actorOf(user), slug: params.slug ?? "", policies: await body() })),
  { role: "ADMIN" },
);
