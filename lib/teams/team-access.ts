import "server-only";
import type { DbClient, TeamRole } from "../db";
import { problem } from "../http/problem";
import { hasRole, rolesAtLeast } from "./team-roles";

/**
 * Applications whose team counts `userId` as a member with at least `role`: the filter every
 * portal, management API and usage query about a user's applications uses.
 */
export function teamApplicationsOf(userId: string, role: TeamRole = "member") {
  return { team: { members: { some: { userId, role: { in: rolesAtLeast(role) } } } } };
}

/** The user's role in the team, or null for an outsider. */
export async function teamRoleOf(db: DbClient, teamId: string, userId: string): Promise<TeamRole | null> {
  const member = await db.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { role: true } });
  return member?.role ?? null;
}

/**
 * Refuses a member whose role is below `needed` with 403 `team-role-required`; an outsider
 * has no role and gets the same 404 as for something that does not exist, which the
 * caller's own lookup raises (`notFound`), so a team's things stay invisible to others.
 */
export async function requireTeamRole(input: { db: DbClient; teamId: string; userId: string; needed: TeamRole; notFound: () => Error }): Promise<TeamRole> {
  const role = await teamRoleOf(input.db, input.teamId, input.userId);
  if (!role) throw input.notFound();
  if (!hasRole(role, input.needed)) {
    throw problem("team-role-required", { detail: `This needs the ${input.needed} role in the team; yours is ${role}.` });
  }
  return role;
}
