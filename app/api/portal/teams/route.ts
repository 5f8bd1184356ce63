import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { createMyTeam, myTeams } from "@/lib/teams/my-teams";

export const GET = portalRoute(async ({ user }) => json({ teams: await myTeams({ db: db(), user }) }));

export const POST = portalRoute(async ({ body, user }) => {
  const team = await createMyTeam({ db: db(), user, input: await body() });
  return json({ id: team.id, name: team.name, personal: team.personal }, 201);
});
