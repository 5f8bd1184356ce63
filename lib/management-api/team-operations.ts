import "server-only";
import { createMyTeam, inviteToMyTeam, myTeams, removeFromMyTeam } from "../teams/my-teams";
import { INVALID, jsonAnswer, jsonBody, NO_TEAM, ok, operation, parse } from "./operation-kit";
import { createdTeamSchema, invitationSchema, inviteBodySchema, removedMemberSchema, teamBodySchema, teamListSchema } from "./team-schemas";

// The team operations of the portal's Settings → Teams and the CLI's `team` commands, for the token's user; each calls lib/teams as the portal does.

const TEAM_ID = { name: "teamId", in: "path", required: true, description: "The team's id.", schema: { type: "string", maxLength: 100 } };
const USER_ID = { name: "userId", in: "path", required: true, description: "The member's user id.", schema: { type: "string", maxLength: 100 } };
const OWNER_ROLE = {
  code: "team-role-required",
  description: "Your role in the team is below owner.",
  detail: "This needs the owner role in the team; yours is admin.",
} as const;

export const TEAM_OPERATIONS = [
  operation({
    id: "listTeams",
    method: "GET",
    path: "/teams",
    scope: "teams:read",
    tags: ["Teams"],
    summary: "List your teams",
    description: "Each with your role, its members, its pending invitations and its applications; your personal team first.",
    responses: () => ({ "200": jsonAnswer("Your teams.", teamListSchema) }),
    handle: async ({ db, caller }) => ok({ teams: await myTeams({ db, user: caller.user }) }),
  }),
  operation({
    id: "createTeam",
    method: "POST",
    path: "/teams",
    scope: "teams:write",
    tags: ["Teams"],
    summary: "Create a team",
    description: "You are its owner.",
    requestBody: jsonBody(teamBodySchema),
    responses: () => ({ "201": jsonAnswer("The team.", createdTeamSchema) }),
    problems: [{ ...INVALID, description: "The body is not valid, or a team of this name exists." }],
    handle: async ({ db, caller, body }) => {
      const team = await createMyTeam({ db, user: caller.user, actor: caller.actor, input: parse(teamBodySchema, body, "body") });
      return ok({ id: team.id, name: team.name, personal: team.personal }, 201);
    },
  }),
  operation({
    id: "inviteTeamMember",
    method: "POST",
    path: "/teams/{teamId}/members",
    scope: "teams:write",
    tags: ["Teams"],
    summary: "Invite a member",
    description:
      "Needs the owner role. The invitation email goes out with the `team.invitation` event; the link is valid for 7 days and only its invitee may accept it.",
    pathParameters: [TEAM_ID],
    requestBody: jsonBody(inviteBodySchema),
    responses: () => ({ "201": jsonAnswer("The invitation, with its link shown once.", invitationSchema) }),
    problems: [INVALID, NO_TEAM, OWNER_ROLE],
    handle: async ({ db, caller, params, body }) => {
      const input = parse(inviteBodySchema, body, "body");
      return ok(await inviteToMyTeam({ db, user: caller.user, actor: caller.actor, teamId: params.teamId ?? "", input }), 201);
    },
  }),
  operation({
    id: "removeTeamMember",
    method: "DELETE",
    path: "/teams/{teamId}/members/{userId}",
    scope: "teams:write",
    tags: ["Teams"],
    summary: "Remove a member",
    description: "Needs the owner role. A team always keeps an owner.",
    pathParameters: [TEAM_ID, USER_ID],
    responses: () => ({ "200": jsonAnswer("The member is removed.", removedMemberSchema) }),
    problems: [
      { ...NO_TEAM, description: "You are not a member of this team, it does not exist, or the user is not its member." },
      OWNER_ROLE,
      {
        code: "last-team-owner",
        description: "The member is the team's last owner.",
        detail: "The team would have no owner left: make another member an owner first.",
      },
    ],
    handle: async ({ db, caller, params }) => {
      const teamId = params.teamId ?? "";
      const memberId = params.userId ?? "";
      await removeFromMyTeam({ db, user: caller.user, actor: caller.actor, teamId, memberId });
      return ok({ teamId, removed: memberId });
    },
  }),
];
