import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../lib/accounts/passwords";
import { databaseLabel } from "../../lib/database-label";
import type { Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { runAdmin } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { openDb } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

const PASSWORD = "team-password-for-tests";
const ROLES = ["owner", "admin", "member", "outsider"] as const;
type Who = (typeof ROLES)[number];

let server: TestServer;
let db: Db;
const users = {} as Record<Who, { id: string; email: string; client: PortalClient }>;
let teamId: string;
let clientId: string;

async function addUser(who: Who) {
  const id = newId("usr");
  const email = `${who}-team@example.com`;
  await db.user.create({ data: { id, email, name: who, passwordHash: await hashPassword(PASSWORD) } });
  users[who] = { id, email, client: await signedIn(server, email, PASSWORD) };
}

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const body = (await response.json()) as { type: string };
  expect(body.type).toBe(`${server.url}/problems/${code}`);
}

/** Invites `who` with `role` as the owner and accepts through the link as `who`. */
async function join(who: Who, role: string) {
  const invited = await users.owner.client.post(`/api/portal/teams/${teamId}/invitations`, { email: users[who].email, role });
  expect(invited.status).toBe(201);
  const { link } = (await invited.json()) as { link: string };
  const path = new URL(link).pathname;
  const page = await users[who].client.get(path);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("Payments");
  const accepted = await users[who].client.post(`/api/portal/teams/invitations/${path.split("/").pop()}/accept`);
  expect(accepted.status).toBe(200);
  expect(await accepted.json()).toEqual({ team: { id: teamId, name: "Payments" }, role });
  return path.split("/").pop()!;
}

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  for (const who of ROLES) await addUser(who);
  const created = await users.owner.client.post("/api/portal/teams", { name: "Payments" });
  expect(created.status).toBe(201);
  teamId = ((await created.json()) as { id: string }).id;
  const credential = await users.owner.client.post("/api/portal/credentials", { application: "Checkout", environment: "platform-dev", team: teamId });
  expect(credential.status).toBe(201);
  clientId = ((await credential.json()) as { credential: { clientId: string } }).credential.clientId;
  await join("admin", "admin");
  await join("member", "member");
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe("team roles on the portal's routes", () => {
  it.each([
    ["reads the credential", (c: PortalClient) => c.get(`/api/portal/credentials/${clientId}`), [200, 200, 200, 404]],
    ["mints a test token", (c: PortalClient) => c.post(`/api/portal/credentials/${clientId}/test-token`), [201, 201, 201, 404]],
    ["rotates", (c: PortalClient) => c.post(`/api/portal/credentials/${clientId}/rotate`, { graceHours: 0, expiresInDays: 0 }), [201, 201, 403, 404]],
    ["invites", (c: PortalClient) => c.post(`/api/portal/teams/${teamId}/invitations`, { email: "x@example.com" }), [201, 403, 403, 404]],
    ["deletes the team", (c: PortalClient) => c.send("DELETE", `/api/portal/teams/${teamId}`), [409, 403, 403, 404]],
  ] as const)("%s: owner, admin, member, outsider", async (_, call, statuses) => {
    for (const [index, who] of ROLES.entries()) {
      const response = await call(users[who].client);
      expect(response.status, who).toBe(statuses[index]);
      if (statuses[index] === 403) await expectProblem(response, 403, "team-role-required");
      if (statuses[index] === 404) await expectProblem(response, 404, "not-found");
    }
  });

  it("applies the same roles to the management API's credential operations", async () => {
    const statuses = { owner: [200, 201], admin: [200, 201], member: [200, 403], outsider: [200, 404] } as const;
    for (const who of ROLES) {
      const created = await users[who].client.post("/api/portal/tokens", { name: "CI", scopes: ["credentials:read", "credentials:write"], expiresInDays: 7 });
      expect(created.status).toBe(201);
      const headers = { authorization: `Bearer ${((await created.json()) as { token: string }).token}`, "content-type": "application/json" };
      const listed = await fetch(`${server.url}/api/v1/credentials`, { headers });
      expect(listed.status, who).toBe(statuses[who][0]);
      const clientIds = ((await listed.json()) as { credentials: { clientId: string }[] }).credentials.map((credential) => credential.clientId);
      expect(clientIds.includes(clientId), who).toBe(who !== "outsider");
      const rotated = await fetch(`${server.url}/api/v1/credentials/${clientId}/secrets`, {
        method: "POST",
        headers,
        body: JSON.stringify({ overlapSeconds: 0 }),
      });
      expect(rotated.status, who).toBe(statuses[who][1]);
    }
  });

  it("lists the team's applications for every member, grouped with its team and role, and for no outsider", async () => {
    for (const who of ["owner", "admin", "member"] as const) {
      const body = (await (await users[who].client.get("/api/portal/credentials")).json()) as {
        applications: { name: string; team: { name: string; role: string } }[];
      };
      expect(body.applications).toContainEqual(expect.objectContaining({ name: "Checkout", team: expect.objectContaining({ name: "Payments", role: who }) }));
    }
    const outsider = (await (await users.outsider.client.get("/api/portal/credentials")).json()) as { applications: unknown[] };
    expect(outsider.applications).toEqual([]);
    const teams = (await (await users.member.client.get("/api/portal/teams")).json()) as { teams: { name: string; role: string; members: unknown[] }[] };
    expect(teams.teams).toEqual([expect.objectContaining({ name: "Payments", role: "member", members: expect.arrayContaining([expect.anything()]) })]);
    const page = await (await users.member.client.get("/settings/teams")).text();
    expect(page).toContain("Payments");
    expect(page).toContain("Checkout");
  });

  it("lets only the owner change roles and remove members, and keeps the last owner", async () => {
    const member = `/api/portal/teams/${teamId}/members/${users.member.id}`;
    await expectProblem(await users.admin.client.send("PATCH", member, { role: "admin" }), 403, "team-role-required");
    await expectProblem(await users.outsider.client.send("PATCH", member, { role: "admin" }), 404, "not-found");
    await expectProblem(await users.member.client.send("DELETE", `/api/portal/teams/${teamId}/members/${users.admin.id}`), 403, "team-role-required");
    await expectProblem(
      await users.owner.client.send("PATCH", `/api/portal/teams/${teamId}/members/${users.owner.id}`, { role: "member" }),
      409,
      "last-team-owner",
    );
    await expectProblem(await users.owner.client.post(`/api/portal/teams/${teamId}/leave`), 409, "last-team-owner");
    await expectProblem(await users.outsider.client.post(`/api/portal/teams/${teamId}/leave`), 404, "not-found");
    const bad = await users.owner.client.send("PATCH", member, { role: "king" });
    expect(bad.status).toBe(400);
    const promoted = await users.owner.client.send("PATCH", member, { role: "admin" });
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toEqual({ teamId, userId: users.member.id, role: "admin" });
    const demoted = await users.owner.client.send("PATCH", member, { role: "member" });
    expect(demoted.status).toBe(200);
    const roles = await db.teamMember.findMany({ where: { teamId }, select: { userId: true, role: true } });
    expect(roles).toHaveLength(3);
    expect(roles.filter((row) => row.role === "owner").map((row) => row.userId)).toEqual([users.owner.id]);
  });

  it("refuses an invitation for another email, and a used one", async () => {
    const invited = await users.owner.client.post(`/api/portal/teams/${teamId}/invitations`, { email: "someone-else@example.com" });
    const token = ((await invited.json()) as { link: string }).link.split("/").pop();
    await expectProblem(await users.outsider.client.post(`/api/portal/teams/invitations/${token}/accept`), 403, "invitation-other-email");
    const reused = await db.teamInvitation.findFirstOrThrow({ where: { teamId, email: users.admin.email } });
    expect(reused.acceptedAt).not.toBeNull();
    const page = await users.outsider.client.get(`/teams/invitations/${token}`);
    expect(await page.text()).toContain("another email");
    await expectProblem(await users.outsider.client.post("/api/portal/teams/invitations/not-a-token/accept"), 404, "not-found");
  });

  it("lets a member leave, and the admin revoke while the member cannot", async () => {
    await expectProblem(await users.member.client.post(`/api/portal/credentials/${clientId}/revoke`), 403, "team-role-required");
    const revoked = await users.admin.client.post(`/api/portal/credentials/${clientId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { status: string }).status).toBe("REVOKED");
    expect((await users.member.client.post(`/api/portal/teams/${teamId}/leave`)).status).toBe(200);
    expect((await users.member.client.get(`/api/portal/credentials/${clientId}`)).status).toBe(404);
    const actions = await db.auditEvent.findMany({ where: { targetType: "team", targetId: teamId }, select: { action: true } });
    expect(new Set(actions.map((event) => event.action))).toEqual(
      new Set(["team.create", "team.invite", "team.member.join", "team.member.role", "team.member.leave"]),
    );
  });
});

describe("the admin CLI's team commands", () => {
  const admin = (...args: string[]) => runAdmin(server.databaseUrl, ...args);

  it("creates a team, invites with a link, lists, creates a credential in it and removes a member", { timeout: 180_000 }, async () => {
    const created = await admin("team", "create", "--name", "Platform", "--owner", users.owner.email, "--json");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({
      database: databaseLabel(server.databaseUrl),
      id: expect.stringMatching(/^team_/),
      name: "Platform",
      owner: users.owner.email,
    });

    const invited = await admin("team", "add-member", "--team", "Platform", "--email", users.outsider.email, "--role", "admin", "--json");
    expect(invited.code).toBe(0);
    const invitation = JSON.parse(invited.stdout) as { link: string; role: string; email: string };
    expect(invitation).toMatchObject({
      team: "Platform",
      email: users.outsider.email,
      role: "admin",
      link: expect.stringMatching(/\/teams\/invitations\/[A-Za-z0-9_-]{43}$/),
    });
    const accepted = await users.outsider.client.post(`/api/portal/teams/invitations/${invitation.link.split("/").pop()}/accept`);
    expect(accepted.status).toBe(200);

    const credential = await admin("credential", "create", "--app", "Platform App", "--env", "platform-dev", "--team", "Platform", "--json");
    expect(credential.code).toBe(0);
    const { clientId: platformClient } = JSON.parse(credential.stdout) as { clientId: string };
    expect(
      (await db.credential.findUniqueOrThrow({ where: { clientId: platformClient }, include: { application: { include: { team: true } } } })).application.team
        .name,
    ).toBe("Platform");
    expect((await users.outsider.client.post(`/api/portal/credentials/${platformClient}/rotate`, { graceHours: 0, expiresInDays: 0 })).status).toBe(201);

    const listed = await admin("team", "list", "--json");
    expect(listed.code).toBe(0);
    const platform = (JSON.parse(listed.stdout) as { teams: { name: string }[] }).teams.find((team) => team.name === "Platform");
    expect(platform).toEqual({
      id: expect.stringMatching(/^team_/),
      name: "Platform",
      personal: false,
      members: [
        { email: users.owner.email, role: "owner" },
        { email: users.outsider.email, role: "admin" },
      ],
      applications: ["Platform App"],
    });

    const lastOwner = await admin("team", "remove-member", "--team", "Platform", "--email", users.owner.email);
    expect(lastOwner.code).not.toBe(0);
    expect(lastOwner.stderr).toContain("no owner left");
    const removed = await admin("team", "remove-member", "--team", "Platform", "--email", users.outsider.email, "--json");
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ team: "Platform", removed: users.outsider.email });
    expect((await users.outsider.client.get(`/api/portal/credentials/${platformClient}`)).status).toBe(404);
  });

  it.each([
    [["team", "create", "--name", "Nope", "--owner", "nobody@example.com"], "--owner"],
    [["team", "create", "--name", "a@b", "--owner", "owner-team@example.com"], "--name"],
    [["team", "add-member", "--team", "Nowhere", "--email", "x@example.com"], "--team"],
    [["team", "add-member", "--team", "Payments", "--email", "x@example.com", "--role", "king"], "--role"],
    [["credential", "create", "--app", "X", "--env", "platform-dev", "--team", "Nowhere"], "--team"],
  ])("exits non-zero with a one-line reason for %j", { timeout: 60_000 }, async (args, reason) => {
    const result = await admin(...args);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(reason);
  });
});
