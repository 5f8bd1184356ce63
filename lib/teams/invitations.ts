import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { type Actor, recordAudit } from "../audit/write-audit";
import { config } from "../config";
import { type DbClient, inTransaction, type TeamRole } from "../db";
import { parseBody, problem } from "../http/problem";
import { newId } from "../ids";
import { recordEvent } from "../events/record-event";
import { hashClientSecret } from "../oauth/client-secrets";
import { sealInvitationToken } from "../events/invitation-token";
import { teamRoleOf } from "./team-access";
import { hasRole } from "./team-roles";
import { lockTeam, teamRoleSchema } from "./teams";

export const INVITATION_DAYS = 7;

export const inviteSchema = z.strictObject({
  email: z
    .email("Enter the email to invite")
    .max(320)
    .transform((email) => email.toLowerCase()),
  role: teamRoleSchema.default("member"),
});

/** Only this HMAC of an invitation's token is stored; the token itself is in the link alone. */
function hashInvitationToken(token: string): string {
  return hashClientSecret(token, config().authSecret);
}

export function invitationLink(token: string): string {
  return `${config().publicUrl}/teams/invitations/${token}`;
}

export type IssuedInvitation = { id: string; teamId: string; teamName: string; email: string; role: TeamRole; expiresAt: Date; link: string };

/**
 * Invites `email` into the team with `role`. The answer holds the link, shown once: it is what
 * the invitation email carries (the `team.invitation` event).
 */
export async function inviteMember(input: { db: DbClient; actor: Actor; teamId: string; input: unknown }): Promise<IssuedInvitation> {
  const { email, role } = parseBody(inviteSchema, input.input);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  return inTransaction(input.db, async (tx) => {
    const team = await tx.team.findUnique({ where: { id: input.teamId }, select: { id: true, name: true, personal: true } });
    if (!team) throw problem("not-found", { detail: `There is no team "${input.teamId}".` });
    if (team.personal) throw personalTeamRefusal();
    const invitation = await tx.teamInvitation.create({
      data: { id: newId("inv"), teamId: team.id, email, role, tokenHash: hashInvitationToken(token), expiresAt, invitedById: input.actor.userId ?? null },
    });
    await recordAudit(tx, input.actor, { action: "team.invite", targetType: "team", targetId: team.id, details: { invitationId: invitation.id, email, role } });
    await recordEvent(tx, "team.invitation", {
      invitationId: invitation.id,
      teamId: team.id,
      team: team.name,
      email,
      invitedBy: input.actor.label,
      expiresAt: expiresAt.toISOString(),
      sealedToken: sealInvitationToken(token),
    });
    return { id: invitation.id, teamId: team.id, teamName: team.name, email, role, expiresAt, link: invitationLink(token) };
  });
}

function personalTeamRefusal() {
  return problem("personal-team", { detail: "A personal team has its owner alone: create a team to share applications." });
}

/**
 * Why an unexpired invitation no longer stands, or null while it does. Inviting needs the owner
 * role, so an invitation stands only while the user who sent it is still an owner of the team
 * (`inviterRole` is their role there now); one an operator sent from the CLI names no user and
 * stands until it expires. Nothing invites into a personal team.
 */
export function invitationVoidReason(invitation: { invitedById: string | null }, team: { personal: boolean }, inviterRole: TeamRole | null): string | null {
  if (team.personal) return "a personal team has its owner alone";
  if (invitation.invitedById !== null && inviterRole !== "owner") return "whoever sent it is no longer an owner of the team";
  return null;
}

/** What the invitation page shows before the user accepts; null for an unknown token. */
export async function findInvitation(input: { db: DbClient; token: string }) {
  if (!input.token || input.token.length > 100) return null;
  const found = await input.db.teamInvitation.findUnique({
    where: { tokenHash: hashInvitationToken(input.token) },
    select: {
      id: true,
      email: true,
      role: true,
      expiresAt: true,
      acceptedAt: true,
      invitedById: true,
      team: { select: { id: true, name: true, personal: true } },
    },
  });
  if (!found) return null;
  const inviterRole = found.invitedById ? await teamRoleOf(input.db, found.team.id, found.invitedById) : null;
  return { ...found, voidReason: invitationVoidReason(found, found.team, inviterRole) };
}

/**
 * Makes the signed-in user a member with the invited role. Only the user whose email was
 * invited may accept, once, within 7 days, while the invitation stands (`invitationVoidReason`);
 * a member keeps a higher role they already hold. The team's row is locked first, so a
 * membership change committed before this one, such as the inviter's removal, is the one seen.
 */
export async function acceptInvitation(input: { db: DbClient; actor: Actor; user: { id: string; email: string }; token: string }) {
  const { user } = input;
  const found = await findInvitation(input);
  if (!found) throw problem("not-found", { detail: "There is no such invitation; it may have been cancelled." });
  if (found.email !== user.email.toLowerCase()) {
    throw problem("invitation-other-email", { detail: `The invitation is for another email than ${user.email}.` });
  }
  const team = { id: found.team.id, name: found.team.name };
  return inTransaction(input.db, async (tx) => {
    await lockTeam(tx, team.id);
    const inviterRole = found.invitedById ? await teamRoleOf(tx, team.id, found.invitedById) : null;
    const voidReason = invitationVoidReason(found, found.team, inviterRole);
    if (voidReason) throw problem("invitation-unusable", { detail: `The invitation no longer stands: ${voidReason}.` });
    const now = new Date();
    // Marking it accepted only while unused and unexpired makes a second acceptance, even a concurrent one, fail.
    const { count } = await tx.teamInvitation.updateMany({ where: { id: found.id, acceptedAt: null, expiresAt: { gt: now } }, data: { acceptedAt: now } });
    if (count === 0) {
      const detail = found.acceptedAt
        ? "The invitation was accepted already."
        : found.expiresAt > now
          ? "The invitation was cancelled."
          : "The invitation has expired.";
      throw problem("invitation-unusable", { detail });
    }
    const key = { teamId_userId: { teamId: team.id, userId: user.id } };
    const member = await tx.teamMember.findUnique({ where: key });
    const role = member && hasRole(member.role, found.role) ? member.role : found.role;
    await tx.teamMember.upsert({ where: key, create: { teamId: team.id, userId: user.id, role }, update: { role } });
    await recordAudit(tx, input.actor, {
      action: "team.member.join",
      targetType: "team",
      targetId: team.id,
      details: { userId: user.id, role, invitationId: found.id },
    });
    return { team, role };
  });
}
