import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { cancelMyTeamInvitation } from "@/lib/teams/my-teams";

export const DELETE = portalRoute(async ({ user, params }) =>
  json(await cancelMyTeamInvitation({ db: db(), user, teamId: params.teamId ?? "", invitationId: params.invitationId ?? "" })),
);
