import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { changeRoleInMyTeam, removeFromMyTeam } from "@/lib/teams/my-teams";

export const PATCH = portalRoute(async ({ body, user, params }) =>
  json(await changeRoleInMyTeam({ db: db(), user, teamId: params.teamId ?? "", memberId: params.userId ?? "", input: await body() })),
);

export const DELETE = portalRoute(async ({ user, params }) => {
  await removeFromMyTeam({ db: db(), user, teamId: params.teamId ?? "", memberId: params.userId ?? "" });
  return json({ teamId: params.teamId, removed: params.userId });
});
