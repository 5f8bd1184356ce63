import "server-only";
import { actorOf } from "../audit/portal-actor";
import type { Actor } from "../audit/write-audit";
import type { PortalUser } from "../actors/portal-user";
import type { DbClient, TeamRole } from "../db";
import { parseBody } from "../http/problem";
import { inviteMember } from "./invitations";
import { cancelInvitation, pendingInvitations } from "./pending-invitations";
import { requireTeamRole } from "./team-access";
import { hasRole, TEAM_ROLES } from "./team-roles";
import { type Authorize, changeRole, changeRoleSchema, createTeam, deleteTeam, removeMember, teamNotFound } from "./teams";

/** What the signed-in user's actions on one of their teams take. */
type MyTeamAction = { db: DbClient; user: PortalUser; teamId: string; actor?: Actor };

/** Checked inside the change's transaction, once the team's row is locked. */
function roleAtLeast(needed: TeamRole, { user, teamId }: MyTeamAction): Authorize {
  return (db) => requireTeamRole({ db, teamId, userId: user.id, needed, notFound: () => teamNotFound(teamId) });
}

function ownerOnly(action: MyTeamAction): Authorize {
  return roleAtLeast("owner", action);
}

function byRoleThenEmail(a: { role: TeamRole; user: { email: string } }, b: { role: TeamRole; user: { email: string } }): number {
  return TEAM_ROLES.indexOf(a.role) - TEAM_ROLES.indexOf(b.role) || a.user.email.localeCompare(b.user.email);
}

/** The user's teams with their role, members, applications and, for owners and admins, pending invitations; personal team first. */
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
          applications: { select: { id: true, name: true }, orderBy: { name: "asc" } },
        },
      },
    },
  });
  const teams = await Promise.all(
    memberships.map(async ({ role, team }) => ({
      ...team,
      role,
      members: team.members.sort(byRoleThenEmail),
      invitations: hasRole(role, "admin") ? await pendingInvitations(db, team) : [],
    })),
  );
  return teams.sort((a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name));
}

export function createMyTeam({ db, user, input, actor }: { db: DbClient; user: PortalUser; input: unknown; actor?: Actor }) {
  return createTeam({ db, actor: actor ?? actorOf(user), ownerId: user.id, input });
}

export async function inviteToMyTeam(action: MyTeamAction & { input: unknown }) {
  await ownerOnly(action)(action.db);
  return inviteMember({ db: action.db, actor: action.actor ?? actorOf(action.user), teamId: action.teamId, input: action.input });
}

/** The team's pending invitations, for its owners and admins. */
export async function myTeamInvitations(action: MyTeamAction) {
  await roleAtLeast("admin", action)(action.db);
  const team = await action.db.team.findUniqueOrThrow({ where: { id: action.teamId }, select: { id: true, personal: true } });
  return pendingInvitations(action.db, team);
}

/** Owners and admins cancel an invitation of the team. */
export function cancelMyTeamInvitation(action: MyTeamAction & { invitationId: string }) {
  return cancelInvitation({
    db: action.db,
    actor: action.actor ?? actorOf(action.user),
    teamId: action.teamId,
    invitationId: action.invitationId,
    authorize: roleAtLeast("admin", action),
  });
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
