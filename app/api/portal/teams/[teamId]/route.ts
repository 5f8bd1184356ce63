import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { deleteMyTeam } from "@/lib/teams/my-teams";

export const DELETE = portalRoute(async ({ user, params }) => {
  await deleteMyTeam({ db: db(), user, teamId: params.teamId ?? "" });
  return json({ deleted: params.teamId });
});
