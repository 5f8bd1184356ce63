import { revokeConnectedAgent } from "@/lib/agents/connected-agents";
import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ user, params }) => {
  await revokeConnectedAgent({ db: db(), actor: actorOf(user), userId: user.id, id: params.id ?? "" });
  return json({ revoked: true });
});
