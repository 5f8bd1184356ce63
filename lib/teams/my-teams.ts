import "server-only";
import { actorOf } from "../audit/portal-actor";
import type { Actor } from "../audit/write-audit";
import type { PortalUser } from "../auth/session";
import type { DbClient, TeamRole } from "../db";
import { parseBody } from "../http/problem";
import { inviteMember } from "./invitations";
import { requireTeamRole } from "./team-access";
import { TEAM_ROLES } from "./team-roles";
import { type Authorize, changeRole, changeRoleSchema, createTeam, deleteTeam, removeMember, teamNotFound } from "./teams";

/** What the signed-in user's actions on one of their teams take. */
type MyTeamAction = { db: DbClient; user: PortalUser; teamId: string; actor?: Actor };

/** Checked inside the change's transaction, once the team's row is locked. */
function ownerOnly({ user, teamId }: MyTeamAction): Authorize {
  return (db) => requireTeamRole({ db, teamId, userId: user.id, needed: "owner", notFound: () => teamNotFound(teamId) });
}

function byRoleThenEmail(a: { role: TeamRole; user: { email: string } }, b: { role: TeamRole; user: { email: string } }): number {
  return TEAM_ROLES.indexOf(a.role) - TEAM_ROLES.indexOf(b.role) || a.user.email.localeCompare(b.user.email);
}

/** The user's teams with their role, members, pending invitations and applications; personal team first. */
export async function myTeams({ db, user }: { db: DbClient; user: PortalUser }) {
  const memberships = await db.teamMember.findMany({
    where: { userId: user.id },
    select: {
      role: true,
      team: {
        select: {
          id: true,
          name: true,
          personal: true,
          members: { select: { role: true, user: { select: { id: true, email: true, name: true } } } },
          invitations: {
            where: { acceptedAt: null, expiresAt: { gt: new Date() } },
            select: { id: true, email: true, role: true, expiresAt: true },
            orderBy: { createdAt: "asc" },
          },
          applications: { select: { id: true, name: true }, orderBy: { name: "asc" } },
        },
      },
    },
  });
  return memberships
    .map(({ role, team }) => ({ ...team, role, members: team.members.sort(byRoleThenEmail) }))
    .sort((a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name));
}

export function createMyTeam({ db, user, input, actor }: { db: DbClient; user: PortalUser; input: unknown; actor?: Actor }) {
  return createTeam({ db, actor: actor ?? actorOf(user), ownerId: user.id, input });
}

export async function inviteToMyTeam(action: MyTeamAction & { input: unknown }) {
  await ownerOnly(action)(action.db);
  return inviteMember({ db: action.db, actor: action.actor ?? actorOf(action.user), teamId: action.teamId, input: action.input });
}

export async function removeFromMyTeam(action: MyTeamAction & { memberId: string }) {
  await removeMember({
    db: action.db,
    actor: action.actor ?? actorOf(action.user),
    teamId: action.teamId,
    userId: action.memberId,
    authorize: ownerOnly(action),
  });
}

export async function changeRoleInMyTeam(action: MyTeamAction & { memberId: string; input: unknown }) {
  const { role } = parseBody(changeRoleSchema, action.input);
  await changeRole({
    db: action.db,
    actor: action.actor ?? actorOf(action.user),
    teamId: action.teamId,
    userId: action.memberId,
    role,
    authorize: ownerOnly(action),
  });
  return { teamId: action.teamId, userId: action.memberId, role };
}

/** Any member may leave, except the last owner. */
export async function leaveMyTeam(action: MyTeamAction) {
  const { db, user, teamId } = action;
  await requireTeamRole({ db, teamId, userId: user.id, needed: "member", notFound: () => teamNotFound(teamId) });
  await removeMember({ db, actor: action.actor ?? actorOf(user), teamId, userId: user.id, action: "team.member.leave" });
}

export async function deleteMyTeam(action: MyTeamAction) {
  await deleteTeam({ db: action.db, actor: action.actor ?? actorOf(action.user), teamId: action.teamId, authorize: ownerOnly(action) });
}
