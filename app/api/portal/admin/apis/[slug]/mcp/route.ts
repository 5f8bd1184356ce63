import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { setApiMcp } from "@/lib/gateway/mcp/set-api-mcp";

export const PUT = portalRoute(
  async ({ body, user, params }) => json(await setApiMcp({ db: db(), actor: actorOf(user), slug: params.slug ?? "", mcp: await body() })),
  {
    role: "ADMIN",
  },
);
