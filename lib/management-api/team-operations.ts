import "server-only";
import { cancelMyTeamInvitation, createMyTeam, inviteToMyTeam, myTeamInvitations, myTeams, removeFromMyTeam } from "../teams/my-teams";
import { INVALID, jsonAnswer, jsonBody, NO_TEAM, ok, operation, parse } from "./operation-kit";
import {
  cancelledInvitationSchema,
  createdTeamSchema,
  invitationSchema,
  inviteBodySchema,
  pendingInvitationListSchema,
  removedMemberSchema,
  teamBodySchema,
  teamListSchema,
} from "./team-schemas";

// The team operations of the portal's Settings → Teams and the CLI's `team` commands, for the token's user; each calls lib/teams as the portal does.

const TEAM_ID = { name: "teamId", in: "path", required: true, description: "The team's id.", schema: { type: "string", maxLength: 100 } };
const USER_ID = { name: "userId", in: "path", required: true, description: "The member's user id.", schema: { type: "string", maxLength: 100 } };
const INVITATION_ID = { name: "invitationId", in: "path", required: true, description: "The invitation's id.", schema: { type: "string", maxLength: 100 } };
const ADMIN_ROLE = {
  code: "team-role-required",
  description: "Your role in the team is member.",
  detail: "This needs the admin role in the team; yours is member.",
} as const;
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
      "Needs the owner role. The invitation email goes out with the `team.invitation` event; the link is valid for 7 days, only its invitee may accept it, and only while you stay an owner. A personal team cannot be shared.",
    pathParameters: [TEAM_ID],
    requestBody: jsonBody(inviteBodySchema),
    responses: () => ({ "201": jsonAnswer("The invitation, with its link shown once.", invitationSchema) }),
    problems: [
      INVALID,
      NO_TEAM,
      OWNER_ROLE,
      {
        code: "personal-team",
        description: "The team is your personal team.",
        detail: "A personal team has its owner alone: create a team to share applications.",
      },
    ],
    handle: async ({ db, caller, params, body }) => {
      const input = parse(inviteBodySchema, body, "body");
      return ok(await inviteToMyTeam({ db, user: caller.user, actor: caller.actor, teamId: params.teamId ?? "", input }), 201);
    },
  }),
  operation({
    id: "listTeamInvitations",
    method: "GET",
    path: "/teams/{teamId}/invitations",
    scope: "teams:read",
    tags: ["Teams"],
    summary: "List a team's pending invitations",
    description: "Needs the admin role. Invitations not yet accepted nor expired whose sender is still an owner of the team, oldest first; never their links.",
    pathParameters: [TEAM_ID],
    responses: () => ({ "200": jsonAnswer("The team's pending invitations.", pendingInvitationListSchema) }),
    problems: [NO_TEAM, ADMIN_ROLE],
    handle: async ({ db, caller, params }) => ok({ invitations: await myTeamInvitations({ db, user: caller.user, teamId: params.teamId ?? "" }) }),
  }),
  operation({
    id: "cancelTeamInvitation",
    method: "DELETE",
    path: "/teams/{teamId}/invitations/{invitationId}",
    scope: "teams:write",
    tags: ["Teams"],
    summary: "Cancel an invitation",
    description: "Needs the admin role. The invitation's link stops working at once.",
    pathParameters: [TEAM_ID, INVITATION_ID],
    responses: () => ({ "200": jsonAnswer("The invitation is cancelled.", cancelledInvitationSchema) }),
    problems: [{ ...NO_TEAM, description: "You are not a member of this team, it does not exist, or it has no pending invitation of this id." }, ADMIN_ROLE],
    handle: async ({ db, caller, params }) =>
      ok(await cancelMyTeamInvitation({ db, user: caller.user, actor: caller.actor, teamId: params.teamId ?? "", invitationId: params.invitationId ?? "" })),
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
