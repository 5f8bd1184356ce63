import "server-only";
import type { Actor } from "../audit/write-audit";
import type { DbClient } from "../db";
import { requireTeamRole } from "../teams/team-access";

export type WebhookAccess = "read" | "manage";

/**
 * Team members read a team's webhooks; its owners and admins manage them (403
 * `team-role-required` for a member). Someone outside the team gets `notFound()`, as for
 * something that does not exist. An actor without a user (the admin CLI) is the operator and passes.
 */
export async function assertTeamAccess(input: { db: DbClient; actor: Actor; teamId: string; access: WebhookAccess; notFound: () => Error }): Promise<void> {
  const { db, actor, teamId } = input;
  if (!actor.userId) {
    if (!(await db.team.findUnique({ where: { id: teamId }, select: { id: true } }))) throw input.notFound();
    return;
  }
  await requireTeamRole({ db, teamId, userId: actor.userId, needed: input.access === "manage" ? "admin" : "member", notFound: input.notFound });
}
