import { z } from "zod";
import { inviteSchema } from "../teams/invitations";
import { TEAM_ROLES } from "../teams/team-roles";
import { newTeamSchema } from "../teams/teams";

// The management API's team bodies are lib/teams' own, closed to unknown fields; the answers are documented from these schemas.

export const teamBodySchema = newTeamSchema;
export const inviteBodySchema = inviteSchema;

const text = (max = 200) => z.string().max(max);
const list = <T extends z.ZodType>(item: T, max = 1000) => z.array(item).max(max);
const timestamp = z.iso.datetime().max(30).meta({ format: "date-time" });
const role = z.enum(TEAM_ROLES);

export const pendingInvitationSchema = z.object({
  id: text(),
  email: text(320),
  role,
  expiresAt: timestamp,
  createdAt: timestamp,
  invitedBy: text(320).nullable().meta({ description: "The email of whoever sent it; null when an operator did, from the CLI." }),
});

export const pendingInvitationListSchema = z.object({ invitations: list(pendingInvitationSchema) });

export const teamSchema = z.object({
  id: text(),
  name: text(),
  personal: z.boolean().meta({ description: "The caller's personal team, named after their email." }),
  role: role.meta({ description: "The caller's role in the team." }),
  members: list(z.object({ role, user: z.object({ id: text(), email: text(320), name: text() }) })),
  invitations: list(pendingInvitationSchema).meta({
    description: "Invitations not yet accepted nor expired whose sender is still an owner; empty unless your role is owner or admin.",
  }),
  applications: list(z.object({ id: text(), name: text() })),
});

export const teamListSchema = z.object({ teams: list(teamSchema) });

export const createdTeamSchema = z.object({ id: text(), name: text(), personal: z.boolean() });

export const invitationSchema = z.object({
  id: text(),
  teamId: text(),
  teamName: text(),
  email: text(320),
  role,
  expiresAt: timestamp,
  link: text(2000).meta({ description: "The invitation link, shown only in this answer; the invitation email carries it too." }),
});

export const cancelledInvitationSchema = z.object({ teamId: text(), cancelled: text().meta({ description: "The id of the invitation cancelled." }) });

export const removedMemberSchema = z.object({ teamId: text(), removed: text().meta({ description: "The id of the user removed." }) });
