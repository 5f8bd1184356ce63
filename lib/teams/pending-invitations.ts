import "server-only";
import { type Actor, recordAudit } from "../audit/write-audit";
import { type DbClient, inTransaction } from "../db";
import { problem } from "../http/problem";
import { invitationVoidReason } from "./invitations";
import { type Authorize, lockTeam } from "./teams";

/** The team's invitations not yet accepted nor expired that still stand, oldest first, each with the email of whoever sent it (null: the CLI). */
export async function pendingInvitations(db: DbClient, team: { id: string; personal: boolean }) {
  const rows = await db.teamInvitation.findMany({
    where: { teamId: team.id, acceptedAt: null, expiresAt: { gt: new Date() } },
    select: {
      id: true,
      email: true,
      role: true,
      expiresAt: true,
      createdAt: true,
      invitedById: true,
      invitedBy: { select: { email: true, teams: { where: { teamId: team.id }, select: { role: true } } } },
    },
    orderBy: { createdAt: "asc" },
  });
  return rows
    .filter((row) => invitationVoidReason(row, team, row.invitedBy?.teams[0]?.role ?? null) === null)
    .map(({ invitedById: _, invitedBy, ...row }) => ({ ...row, invitedBy: invitedBy?.email ?? null }));
}

/** Deletes an invitation not yet accepted, so its link no longer works; an accepted one, or another team's, is not found. */
export async function cancelInvitation(input: { db: DbClient; actor: Actor; teamId: string; invitationId: string; authorize?: Authorize }) {
  const { teamId, invitationId } = input;
  await inTransaction(input.db, async (tx) => {
    await lockTeam(tx, teamId, input.authorize);
    const invitation = await tx.teamInvitation.findFirst({ where: { id: invitationId, teamId, acceptedAt: null }, select: { email: true, role: true } });
    if (!invitation) throw problem("not-found", { detail: `There is no pending invitation "${invitationId}" in the team.` });
    await tx.teamInvitation.delete({ where: { id: invitationId } });
    await recordAudit(tx, input.actor, { action: "team.invitation.cancel", targetType: "team", targetId: teamId, details: { invitationId, ...invitation } });
  });
  return { teamId, cancelled: invitationId };
}
