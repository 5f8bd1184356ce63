import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { myAccessRequests } from "../access-requests/list-access-requests";
import { actorOf } from "../audit/portal-actor";
import type { PortalUser } from "../actors/portal-user";
import { issueMyFirstSecret, myApplications, ownCredentialOrThrow, revokeMyCredential, rotateMySecret } from "../credentials/my-credentials";
import { createNewCredential } from "../credentials/new-credential";
import { migratedDatabase } from "../database/migrated-database";
import type { Db, TeamRole } from "../db";
import { newId } from "../ids";
import { hashClientSecret } from "../oauth/client-secrets";
import { config } from "../config";
import { myClients } from "../usage/my-usage";
import { acceptInvitation, inviteMember } from "./invitations";
import { changeRoleInMyTeam, createMyTeam, deleteMyTeam, inviteToMyTeam, leaveMyTeam, myTeams, removeFromMyTeam } from "./my-teams";
import { personalTeamId } from "./teams";

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
});

afterAll(async () => {
  await database?.close();
});

async function newUser(label: string): Promise<PortalUser> {
  const id = newId("usr");
  const email = `${label}-${id.slice(-6).toLowerCase()}@example.com`;
  await db.user.create({ data: { id, email, name: label } });
  return { id, email, name: label, role: "DEVELOPER" };
}

/** A team owned by a fresh user, with one member of each other role and an application with a credential. */
async function teamWithRoles() {
  const owner = await newUser("owner");
  const team = await createMyTeam({ db, user: owner, input: { name: `Team ${newId("t")}` } });
  const members: Record<TeamRole, PortalUser> = { owner, admin: await newUser("admin"), member: await newUser("member") };
  for (const role of ["admin", "member"] as const) {
    await db.teamMember.create({ data: { teamId: team.id, userId: members[role].id, role } });
  }
  const { credential } = await createNewCredential({
    db,
    input: { application: "Shared App", environment: "platform-dev", team: team.id },
    by: { user: owner },
  });
  return { team, members, outsider: await newUser("outsider"), clientId: credential.clientId };
}

const ROTATE = { graceHours: 0, expiresInDays: 0 };

describe("personal teams", () => {
  it("are made with a user's first application, with the user as owner, and hold it", async () => {
    const user = await newUser("first");
    expect(await db.team.findUnique({ where: { id: personalTeamId(user.id) } })).toBeNull();
    const { credential } = await createNewCredential({ db, input: { application: "Mine", environment: "platform-dev" }, by: { user } });
    const team = await db.team.findUniqueOrThrow({ where: { id: personalTeamId(user.id) }, include: { members: true, applications: true } });
    expect(team).toMatchObject({
      name: user.email,
      personal: true,
      members: [{ userId: user.id, role: "owner" }],
      applications: [{ name: "Mine", ownerId: user.id }],
    });
    const applications = await myApplications({ db, user });
    expect(applications).toEqual([
      expect.objectContaining({
        name: "Mine",
        team: { id: team.id, name: user.email, personal: true, role: "owner" },
        credentials: [expect.objectContaining({ clientId: credential.clientId })],
      }),
    ]);
    await createNewCredential({ db, input: { application: "Mine 2", environment: "platform-dev" }, by: { user } });
    expect(await db.team.count({ where: { members: { some: { userId: user.id } } } })).toBe(1);
  });
});

describe("roles on a team's credentials", () => {
  it("let every member read and see usage, admins and owners change, and outsiders see nothing", async () => {
    const { members, outsider, clientId } = await teamWithRoles();
    for (const user of Object.values(members)) {
      expect((await ownCredentialOrThrow({ db, user, clientId })).clientId).toBe(clientId);
      expect((await myClients(db, user)).map((client) => client.clientId)).toContain(clientId);
      expect((await myApplications({ db, user })).flatMap((application) => application.credentials.map((credential) => credential.clientId))).toContain(
        clientId,
      );
    }
    for (const user of [members.owner, members.admin]) {
      expect((await rotateMySecret({ db, user, clientId, input: ROTATE })).clientSecret).toMatch(/^gsk_/);
    }
    await expect(rotateMySecret({ db, user: members.member, clientId, input: ROTATE })).rejects.toMatchObject({ status: 403, code: "team-role-required" });
    await expect(issueMyFirstSecret({ db, user: members.member, clientId, input: {} })).rejects.toMatchObject({ status: 403, code: "team-role-required" });
    await expect(revokeMyCredential({ db, user: members.member, clientId })).rejects.toMatchObject({ status: 403, code: "team-role-required" });
    for (const attempt of [
      () => ownCredentialOrThrow({ db, user: outsider, clientId }),
      () => rotateMySecret({ db, user: outsider, clientId, input: ROTATE }),
      () => issueMyFirstSecret({ db, user: outsider, clientId, input: {} }),
      () => revokeMyCredential({ db, user: outsider, clientId }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ status: 404, code: "not-found" });
    }
    expect(await myClients(db, outsider)).toEqual([]);
    expect(await myApplications({ db, user: outsider })).toEqual([]);
    expect((await revokeMyCredential({ db, user: members.admin, clientId })).status).toBe("REVOKED");
  });

  it("let admins and owners create credentials in the team, not members or outsiders", async () => {
    const { team, members, outsider } = await teamWithRoles();
    const input = (application: string) => ({ application, environment: "platform-dev", team: team.id });
    const { credential } = await createNewCredential({ db, input: input("Admin's"), by: { user: members.admin } });
    expect(credential.application.teamId).toBe(team.id);
    await expect(createNewCredential({ db, input: input("Member's"), by: { user: members.member } })).rejects.toMatchObject({
      status: 403,
      code: "team-role-required",
    });
    await expect(createNewCredential({ db, input: input("Outsider's"), by: { user: outsider } })).rejects.toMatchObject({
      status: 400,
      code: "validation-failed",
      errors: [{ in: "body", field: "team", message: "You are in no such team" }],
    });
    expect(await db.application.count({ where: { teamId: team.id } })).toBe(2);
  });
});

describe("team membership", () => {
  it("is managed by owners only: admins and members get 403, outsiders 404", async () => {
    const { team, members, outsider } = await teamWithRoles();
    const teamId = team.id;
    const attempts = (user: PortalUser) => [
      () => inviteToMyTeam({ db, user, teamId, input: { email: "someone@example.com" } }),
      () => removeFromMyTeam({ db, user, teamId, memberId: members.member.id }),
      () => changeRoleInMyTeam({ db, user, teamId, memberId: members.member.id, input: { role: "admin" } }),
      () => deleteMyTeam({ db, user, teamId }),
    ];
    for (const user of [members.admin, members.member]) {
      for (const attempt of attempts(user)) await expect(attempt()).rejects.toMatchObject({ status: 403, code: "team-role-required" });
    }
    for (const attempt of attempts(outsider)) await expect(attempt()).rejects.toMatchObject({ status: 404, code: "not-found" });
    await expect(leaveMyTeam({ db, user: outsider, teamId })).rejects.toMatchObject({ status: 404 });
    await changeRoleInMyTeam({ db, user: members.owner, teamId, memberId: members.member.id, input: { role: "admin" } });
    await removeFromMyTeam({ db, user: members.owner, teamId, memberId: members.member.id });
    await leaveMyTeam({ db, user: members.admin, teamId });
    expect(await db.teamMember.findMany({ where: { teamId }, select: { userId: true, role: true } })).toEqual([{ userId: members.owner.id, role: "owner" }]);
    const audit = await db.auditEvent.findMany({
      where: { targetType: "team", targetId: teamId },
      orderBy: { at: "asc" },
      select: { action: true, actorLabel: true },
    });
    expect(audit.map((event) => event.action)).toEqual(["team.create", "team.member.role", "team.member.remove", "team.member.leave"]);
  });

  it("keeps at least one owner: the last one cannot leave, be removed or be demoted", async () => {
    const { team, members } = await teamWithRoles();
    const owner = members.owner;
    const lastOwner = { status: 409, code: "last-team-owner" };
    await expect(leaveMyTeam({ db, user: owner, teamId: team.id })).rejects.toMatchObject(lastOwner);
    await expect(removeFromMyTeam({ db, user: owner, teamId: team.id, memberId: owner.id })).rejects.toMatchObject(lastOwner);
    await expect(changeRoleInMyTeam({ db, user: owner, teamId: team.id, memberId: owner.id, input: { role: "admin" } })).rejects.toMatchObject(lastOwner);
    expect(await db.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId: owner.id } } })).toMatchObject({ role: "owner" });
    await changeRoleInMyTeam({ db, user: owner, teamId: team.id, memberId: members.admin.id, input: { role: "owner" } });
    await leaveMyTeam({ db, user: owner, teamId: team.id });
    expect(await db.teamMember.findMany({ where: { teamId: team.id, role: "owner" }, select: { userId: true } })).toEqual([{ userId: members.admin.id }]);
  });

  it("refuses to delete a team that owns applications, and deletes an empty one with its members", async () => {
    const { team, members } = await teamWithRoles();
    await expect(deleteMyTeam({ db, user: members.owner, teamId: team.id })).rejects.toMatchObject({ status: 409, code: "team-has-applications" });
    const empty = await createMyTeam({ db, user: members.owner, input: { name: `Empty ${newId("t")}` } });
    await deleteMyTeam({ db, user: members.owner, teamId: empty.id });
    expect(await db.team.findUnique({ where: { id: empty.id } })).toBeNull();
    expect(await db.teamMember.count({ where: { teamId: empty.id } })).toBe(0);
  });

  it("refuses team names that are taken, reserved or look like an email", async () => {
    const user = await newUser("namer");
    const name = `Taken ${newId("t")}`;
    await createMyTeam({ db, user, input: { name } });
    for (const taken of [name, "unassigned", "a@b.example"]) {
      await expect(createMyTeam({ db, user, input: { name: taken } })).rejects.toMatchObject({
        status: 400,
        code: "validation-failed",
        errors: [expect.objectContaining({ field: "name" })],
      });
    }
  });

  it("lists the user's teams with role, members and applications, and pending invitations for owners and admins only", async () => {
    const { team, members } = await teamWithRoles();
    await inviteToMyTeam({ db, user: members.owner, teamId: team.id, input: { email: "Pending@Example.com", role: "admin" } });
    const [listed] = (await myTeams({ db, user: members.member })).filter((entry) => entry.id === team.id);
    expect(listed).toMatchObject({
      name: team.name,
      role: "member",
      members: [
        { role: "owner", user: { email: members.owner.email } },
        { role: "admin", user: { email: members.admin.email } },
        { role: "member", user: { email: members.member.email } },
      ],
      invitations: [],
      applications: [{ name: "Shared App" }],
    });
    const [asAdmin] = (await myTeams({ db, user: members.admin })).filter((entry) => entry.id === team.id);
    expect(asAdmin?.invitations).toEqual([expect.objectContaining({ email: "pending@example.com", role: "admin", invitedBy: members.owner.email })]);
  });
});

describe("invitations", () => {
  it("store only a hash of the token, and are accepted once by the invited email within 7 days", async () => {
    const { team, members } = await teamWithRoles();
    const invitee = await newUser("invitee");
    const invitation = await inviteToMyTeam({ db, user: members.owner, teamId: team.id, input: { email: invitee.email.toUpperCase(), role: "admin" } });
    const token = invitation.link.slice(`${config().publicUrl}/teams/invitations/`.length);
    expect(invitation.link).toBe(`${config().publicUrl}/teams/invitations/${token}`);
    const stored = await db.teamInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(stored).toMatchObject({
      email: invitee.email,
      role: "admin",
      tokenHash: hashClientSecret(token, config().authSecret),
      invitedById: members.owner.id,
    });
    expect(JSON.stringify(stored)).not.toContain(token);
    const days = (stored.expiresAt.getTime() - stored.createdAt.getTime()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);

    const other = await newUser("other");
    await expect(acceptInvitation({ db, actor: actorOf(other), user: other, token })).rejects.toMatchObject({ status: 403, code: "invitation-other-email" });
    await expect(acceptInvitation({ db, actor: actorOf(invitee), user: invitee, token: `${token}x` })).rejects.toMatchObject({ status: 404 });
    expect(await acceptInvitation({ db, actor: actorOf(invitee), user: invitee, token })).toEqual({ team: { id: team.id, name: team.name }, role: "admin" });
    await expect(acceptInvitation({ db, actor: actorOf(invitee), user: invitee, token })).rejects.toMatchObject({ status: 410, code: "invitation-unusable" });
    expect(
      (await rotateMySecret({ db, user: invitee, clientId: (await myApplications({ db, user: invitee }))[0]!.credentials[0]!.clientId, input: ROTATE }))
        .clientSecret,
    ).toMatch(/^gsk_/);
    const audit = await db.auditEvent.findMany({
      where: { targetId: team.id, action: { in: ["team.invite", "team.member.join"] } },
      select: { action: true, actorLabel: true },
    });
    expect(audit).toEqual([
      { action: "team.invite", actorLabel: members.owner.email },
      { action: "team.member.join", actorLabel: invitee.email },
    ]);
  });

  it("expire after 7 days, and never lower a role a member holds", async () => {
    const { team, members } = await teamWithRoles();
    const expired = await inviteMember({ db, actor: actorOf(members.owner), teamId: team.id, input: { email: members.member.email } });
    await db.teamInvitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const token = (link: string) => link.split("/").pop()!;
    await expect(acceptInvitation({ db, actor: actorOf(members.member), user: members.member, token: token(expired.link) })).rejects.toMatchObject({
      status: 410,
      code: "invitation-unusable",
      detail: "The invitation has expired.",
    });
    const lower = await inviteMember({ db, actor: actorOf(members.owner), teamId: team.id, input: { email: members.admin.email, role: "member" } });
    expect((await acceptInvitation({ db, actor: actorOf(members.admin), user: members.admin, token: token(lower.link) })).role).toBe("admin");
  });
});

describe("the at-least-one-owner invariant under concurrency", () => {
  it("lets only one of two owners who demote each other at once succeed", async () => {
    const { team, members } = await teamWithRoles();
    await changeRoleInMyTeam({ db, user: members.owner, teamId: team.id, memberId: members.admin.id, input: { role: "owner" } });
    const results = await Promise.allSettled([
      changeRoleInMyTeam({ db, user: members.owner, teamId: team.id, memberId: members.admin.id, input: { role: "member" } }),
      changeRoleInMyTeam({ db, user: members.admin, teamId: team.id, memberId: members.owner.id, input: { role: "member" } }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: expect.stringMatching(/^(last-team-owner|team-role-required)$/) });
    expect(await db.teamMember.count({ where: { teamId: team.id, role: "owner" } })).toBe(1);
  });
});

describe("access requests of a team", () => {
  it("are listed for every member of the team holding the provisioned credential, and for no outsider", async () => {
    const { members, outsider, clientId } = await teamWithRoles();
    const credential = await db.credential.findUniqueOrThrow({ where: { clientId } });
    const request = await db.accessRequest.create({
      data: {
        id: newId("req"),
        topic: "CREDENTIALS",
        status: "APPROVED",
        requesterId: members.owner.id,
        name: "Owner",
        email: members.owner.email,
        message: "please",
        credentialId: credential.id,
      },
    });
    for (const user of Object.values(members)) {
      expect((await myAccessRequests({ db, user })).map((row) => row.id)).toContain(request.id);
    }
    expect(await myAccessRequests({ db, user: outsider })).toEqual([]);
  });
});
