import { noPositionals, requiredFlag, UsageError } from "./args";
import { type CommandGroup, command } from "./command";
import { asUsageError } from "./problem-usage";

async function userByEmail(flag: string, email: string) {
  const { db } = await import("../db");
  const user = await db().user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, email: true } });
  if (!user) throw new UsageError(`${flag}: no user "${email}"`);
  return user;
}

/** The team named by `--team`, by name as `team list` shows it. */
export async function teamByName(name: string) {
  const { db } = await import("../db");
  const team = await db().team.findUnique({ where: { name }, select: { id: true, name: true } });
  if (!team) throw new UsageError(`--team: no team "${name}"`);
  return team;
}

const create = command({ usage: "team create --name <name> --owner <email>", summary: "Creates a team with its first owner." }, async (args) => {
  noPositionals(args);
  const name = requiredFlag(args, "name");
  const owner = await userByEmail("--owner", requiredFlag(args, "owner"));
  const [{ db }, { CLI_ACTOR }, { createTeam }] = await Promise.all([import("../db"), import("../audit/write-audit"), import("../teams/teams")]);
  const team = await asUsageError(() => createTeam({ db: db(), actor: CLI_ACTOR, ownerId: owner.id, input: { name } }));
  return { id: team.id, name: team.name, owner: owner.email };
});

const list = command({ usage: "team list", summary: "Lists the teams with their members and applications." }, async (args) => {
  noPositionals(args);
  const { db } = await import("../db");
  const teams = await db().team.findMany({
    orderBy: { name: "asc" },
    select: {
      id: true,
      name: true,
      personal: true,
      members: { select: { role: true, user: { select: { email: true } } }, orderBy: { createdAt: "asc" } },
      applications: { select: { name: true }, orderBy: { name: "asc" } },
    },
  });
  return {
    teams: teams.map((team) => ({
      id: team.id,
      name: team.name,
      personal: team.personal,
      members: team.members.map((member) => ({ email: member.user.email, role: member.role })),
      applications: team.applications.map((application) => application.name),
    })),
  };
});

const addMember = command(
  {
    usage: "team add-member --team <name> --email <email> [--role owner|admin|member]",
    summary: "Invites an email into a team and prints the invitation link once (valid 7 days).",
  },
  async (args) => {
    noPositionals(args);
    const team = await teamByName(requiredFlag(args, "team"));
    const email = requiredFlag(args, "email");
    const [{ db }, { CLI_ACTOR }, { inviteMember }] = await Promise.all([import("../db"), import("../audit/write-audit"), import("../teams/invitations")]);
    const invitation = await asUsageError(() =>
      inviteMember({ db: db(), actor: CLI_ACTOR, teamId: team.id, input: { email, role: args.flags.get("role") ?? "member" } }),
    );
    return {
      id: invitation.id,
      team: team.name,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt.toISOString(),
      link: invitation.link,
    };
  },
);

const invitations = command(
  {
    usage: "team invitations --team <name>",
    summary: "Lists a team's pending invitations: not accepted nor expired, sent by a current owner or from the CLI; never their links.",
  },
  async (args) => {
    noPositionals(args);
    const { id, name } = await teamByName(requiredFlag(args, "team"));
    const [{ db }, { pendingInvitations }] = await Promise.all([import("../db"), import("../teams/pending-invitations")]);
    const team = await db().team.findUniqueOrThrow({ where: { id }, select: { id: true, personal: true } });
    const pending = await pendingInvitations(db(), team);
    return {
      team: name,
      invitations: pending.map((invitation) => ({
        ...invitation,
        expiresAt: invitation.expiresAt.toISOString(),
        createdAt: invitation.createdAt.toISOString(),
      })),
    };
  },
);

const uninvite = command(
  { usage: "team uninvite --team <name> --id <invitation id>", summary: "Cancels a pending invitation: its link stops working at once." },
  async (args) => {
    noPositionals(args);
    const team = await teamByName(requiredFlag(args, "team"));
    const invitationId = requiredFlag(args, "id");
    const [{ db }, { CLI_ACTOR }, { cancelInvitation }] = await Promise.all([
      import("../db"),
      import("../audit/write-audit"),
      import("../teams/pending-invitations"),
    ]);
    await asUsageError(() => cancelInvitation({ db: db(), actor: CLI_ACTOR, teamId: team.id, invitationId }));
    return { team: team.name, cancelled: invitationId };
  },
);

const removeMember = command(
  { usage: "team remove-member --team <name> --email <email>", summary: "Removes a member from a team; the last owner stays." },
  async (args) => {
    noPositionals(args);
    const team = await teamByName(requiredFlag(args, "team"));
    const user = await userByEmail("--email", requiredFlag(args, "email"));
    const [{ db }, { CLI_ACTOR }, teams] = await Promise.all([import("../db"), import("../audit/write-audit"), import("../teams/teams")]);
    await asUsageError(() => teams.removeMember({ db: db(), actor: CLI_ACTOR, teamId: team.id, userId: user.id }));
    return { team: team.name, removed: user.email };
  },
);

export const commands: CommandGroup = { create, list, "add-member": addMember, invitations, uninvite, "remove-member": removeMember };
