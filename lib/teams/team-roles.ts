import type { TeamRole } from "../db";

/** Each role may do what the roles after it may: owner ⊃ admin ⊃ member. */
export const TEAM_ROLES = ["owner", "admin", "member"] as const satisfies readonly TeamRole[];

/** The roles that hold at least `role`'s rights. */
export function rolesAtLeast(role: TeamRole): TeamRole[] {
  return TEAM_ROLES.slice(0, TEAM_ROLES.indexOf(role) + 1);
}

export function hasRole(held: TeamRole, needed: TeamRole): boolean {
  return rolesAtLeast(needed).includes(held);
}

export function isTeamRole(value: string): value is TeamRole {
  return (TEAM_ROLES as readonly string[]).includes(value);
}
