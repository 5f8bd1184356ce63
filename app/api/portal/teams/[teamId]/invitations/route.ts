import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { inviteToMyTeam, myTeamInvitations } from "@/lib/teams/my-teams";

export const GET = portalRoute(async ({ user, params }) => json({ invitations: await myTeamInvitations({ db: db(), user, teamId: params.teamId ?? "" }) }));

/** The answer holds the invitation link, shown once. */
export const POST = portalRoute(async ({ body, user, params }) =>
  json(await inviteToMyTeam({ db: db(), user, teamId: params.teamId ?? "", input: await body() }), 201),
);
