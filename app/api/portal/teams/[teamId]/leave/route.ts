import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { leaveMyTeam } from "@/lib/teams/my-teams";

export const POST = portalRoute(async ({ user, params }) => {
  await leaveMyTeam({ db: db(), user, teamId: params.teamId ?? "" });
  return json({ left: params.teamId });
});
