// Who a team's invitations, personal team and credential events still answer to once membership changes:
// invitations that outlive their inviter's rights, their listing and cancelling, a personal team shared
// before sharing was refused, and the emails of a removed member.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../lib/accounts/passwords";
import type { Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { runAdmin } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink";
import { openDb } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

const PASSWORD = "membership-password-for-tests";
const PEOPLE = ["alice", "bob", "carol", "dave", "erin", "mallory"] as const;
type Who = (typeof PEOPLE)[number];

let server: TestServer;
let sink: SmtpSink;
let db: Db;
const people = {} as Record<Who, { id: string; email: string; client: PortalClient; token: string }>;

async function addPerson(who: Who) {
  const id = newId("usr");
  const email = `${who}-membership@example.com`;
  await db.user.create({ data: { id, email, name: who, passwordHash: await hashPassword(PASSWORD) } });
  const client = await signedIn(server, email, PASSWORD);
  const created = await client.post("/api/portal/tokens", {
    name: "CI",
    scopes: ["teams:read", "teams:write", "credentials:read", "credentials:write"],
    expiresInDays: 7,
  });
  expect(created.status).toBe(201);
  people[who] = { id, email, client, token: ((await created.json()) as { token: string }).token };
}

function api(who: Who, path: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${server.url}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${people[who].token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function expectProblem(response: Response, status: number, code: string): Promise<{ detail?: string }> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const body = (await response.json()) as { type: string; detail?: string; requestId?: string };
  expect(body.type).toBe(`${server.url}/problems/${code}`);
  expect(body.requestId).toBeTruthy();
  return body;
}

async function newTeam(owner: Who, name: string): Promise<string> {
  const created = await people[owner].client.post("/api/portal/teams", { name });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function invite(inviter: Who, teamId: string, who: Who, role: string): Promise<{ id: string; token: string }> {
  const invited = await people[inviter].client.post(`/api/portal/teams/${teamId}/invitations`, { email: people[who].email, role });
  expect(invited.status).toBe(201);
  const { id, link } = (await invited.json()) as { id: string; link: string };
  return { id, token: link.split("/").pop()! };
}

function accept(who: Who, token: string) {
  return people[who].client.post(`/api/portal/teams/invitations/${token}/accept`);
}

async function pendingIds(who: Who, teamId: string): Promise<string[]> {
  const listed = await people[who].client.get(`/api/portal/teams/${teamId}/invitations`);
  expect(listed.status).toBe(200);
  return ((await listed.json()) as { invitations: { id: string }[] }).invitations.map((invitation) => invitation.id);
}

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer({ env: { SMTP_URL: sink.url, MAIL_FROM: "Test Portal <portal@example.test>" } });
  db = openDb(server);
  for (const who of PEOPLE) await addPerson(who);
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await sink?.close();
});

describe("invitations that outlive their inviter's rights", () => {
  it("refuses an owner invitation once its inviter was removed: alice makes bob owner, bob invites dave, alice removes bob", async () => {
    const teamId = await newTeam("alice", "Payments");
    expect((await accept("bob", (await invite("alice", teamId, "bob", "owner")).token)).status).toBe(200);
    const toDave = await invite("bob", teamId, "dave", "owner");
    expect(await pendingIds("alice", teamId)).toEqual([toDave.id]);

    expect((await people.alice.client.send("DELETE", `/api/portal/teams/${teamId}/members/${people.bob.id}`)).status).toBe(200);
    expect(await pendingIds("alice", teamId)).toEqual([]);
    const page = await (await people.dave.client.get(`/teams/invitations/${toDave.token}`)).text();
    expect(page).toContain("no longer stands");
    const refused = await expectProblem(await accept("dave", toDave.token), 410, "invitation-unusable");
    expect(refused.detail).toContain("no longer an owner");
    expect(await db.teamMember.count({ where: { teamId, userId: people.dave.id } })).toBe(0);
    expect((await people.dave.client.send("DELETE", `/api/portal/teams/${teamId}/members/${people.alice.id}`)).status).toBe(404);
  });

  it("voids the invitations of an owner demoted to admin, and keeps those an operator sent from the CLI", async () => {
    const teamId = await newTeam("alice", "Search");
    expect((await accept("bob", (await invite("alice", teamId, "bob", "owner")).token)).status).toBe(200);
    const fromBob = await invite("bob", teamId, "carol", "member");
    const fromCli = await runAdmin(server.databaseUrl, "team", "add-member", "--team", "Search", "--email", people.erin.email, "--json");
    expect(fromCli.code).toBe(0);
    const cliInvitation = JSON.parse(fromCli.stdout) as { id: string; link: string };

    expect((await people.alice.client.send("PATCH", `/api/portal/teams/${teamId}/members/${people.bob.id}`, { role: "admin" })).status).toBe(200);
    expect(await pendingIds("alice", teamId)).toEqual([cliInvitation.id]);
    await expectProblem(await accept("carol", fromBob.token), 410, "invitation-unusable");
    expect((await accept("erin", cliInvitation.link.split("/").pop()!)).status).toBe(200);
  });
});

describe("listing and cancelling pending invitations", () => {
  let teamId: string;

  beforeAll(async () => {
    teamId = await newTeam("carol", "Ledger");
    expect((await accept("dave", (await invite("carol", teamId, "dave", "admin")).token)).status).toBe(200);
    expect((await accept("erin", (await invite("carol", teamId, "erin", "member")).token)).status).toBe(200);
  });

  it("lets an admin cancel in the portal, after which the link no longer works", async () => {
    const toBob = await invite("carol", teamId, "bob", "member");
    const listed = await people.dave.client.get(`/api/portal/teams/${teamId}/invitations`);
    expect(await listed.json()).toEqual({
      invitations: [
        { id: toBob.id, email: people.bob.email, role: "member", expiresAt: expect.any(String), createdAt: expect.any(String), invitedBy: people.carol.email },
      ],
    });
    await expectProblem(await people.erin.client.get(`/api/portal/teams/${teamId}/invitations`), 403, "team-role-required");
    await expectProblem(await people.erin.client.send("DELETE", `/api/portal/teams/${teamId}/invitations/${toBob.id}`), 403, "team-role-required");
    const teams = (await (await people.erin.client.get("/api/portal/teams")).json()) as { teams: { id: string; invitations: unknown[] }[] };
    expect(teams.teams.find((team) => team.id === teamId)?.invitations).toEqual([]);

    const cancelled = await people.dave.client.send("DELETE", `/api/portal/teams/${teamId}/invitations/${toBob.id}`);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual({ teamId, cancelled: toBob.id });
    await expectProblem(await people.dave.client.send("DELETE", `/api/portal/teams/${teamId}/invitations/${toBob.id}`), 404, "not-found");
    await expectProblem(await accept("bob", toBob.token), 404, "not-found");
    expect(await db.auditEvent.count({ where: { action: "team.invitation.cancel", targetId: teamId, actorId: people.dave.id } })).toBe(1);
  });

  it("lists and cancels through /api/v1, documented in openapi.json", async () => {
    const toBob = await invite("carol", teamId, "bob", "admin");
    const listed = await api("dave", `/teams/${teamId}/invitations`);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { invitations: { id: string }[] }).invitations.map((invitation) => invitation.id)).toEqual([toBob.id]);
    await expectProblem(await api("erin", `/teams/${teamId}/invitations/${toBob.id}`, { method: "DELETE" }), 403, "team-role-required");
    const cancelled = await api("dave", `/teams/${teamId}/invitations/${toBob.id}`, { method: "DELETE" });
    expect(await cancelled.json()).toEqual({ teamId, cancelled: toBob.id });
    await expectProblem(await accept("bob", toBob.token), 404, "not-found");

    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(document.paths["/teams/{teamId}/invitations"]?.get?.["x-required-scope"]).toBe("teams:read");
    expect(document.paths["/teams/{teamId}/invitations/{invitationId}"]?.delete?.["x-required-scope"]).toBe("teams:write");
  });

  it("answers another team's owner 404 for the list and the cancel, in the portal and /api/v1", async () => {
    const toBob = await invite("carol", teamId, "bob", "member");
    await newTeam("mallory", "Mallory's");
    const list = `/teams/${teamId}/invitations`;
    const cancel = `/teams/${teamId}/invitations/${toBob.id}`;
    await expectProblem(await people.mallory.client.get(`/api/portal${list}`), 404, "not-found");
    await expectProblem(await people.mallory.client.send("DELETE", `/api/portal${cancel}`), 404, "not-found");
    await expectProblem(await api("mallory", list), 404, "not-found");
    await expectProblem(await api("mallory", cancel, { method: "DELETE" }), 404, "not-found");
    const malloryTeam = (await db.team.findUniqueOrThrow({ where: { name: "Mallory's" } })).id;
    await expectProblem(await people.mallory.client.send("DELETE", `/api/portal/teams/${malloryTeam}/invitations/${toBob.id}`), 404, "not-found");
    expect(await pendingIds("carol", teamId)).toContain(toBob.id);
  });

  it("lists and cancels from the admin CLI", { timeout: 60_000 }, async () => {
    const toMallory = await invite("carol", teamId, "mallory", "member");
    const listed = await runAdmin(server.databaseUrl, "team", "invitations", "--team", "Ledger", "--json");
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { invitations: { id: string; invitedBy: string }[] }).invitations).toContainEqual(
      expect.objectContaining({ id: toMallory.id, invitedBy: people.carol.email }),
    );
    const cancelled = await runAdmin(server.databaseUrl, "team", "uninvite", "--team", "Ledger", "--id", toMallory.id, "--json");
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ team: "Ledger", cancelled: toMallory.id });
    const again = await runAdmin(server.databaseUrl, "team", "uninvite", "--team", "Ledger", "--id", toMallory.id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("no pending invitation");
    await expectProblem(await accept("mallory", toMallory.token), 404, "not-found");
  });
});

describe("personal teams", () => {
  it("refuses invitations into a personal team, in the portal and /api/v1", async () => {
    const created = await api("bob", "/credentials", { method: "POST", body: { application: "Bob Private", environment: "platform-dev" } });
    expect(created.status).toBe(201);
    const personal = `team_personal_${people.bob.id}`;
    await expectProblem(
      await people.bob.client.post(`/api/portal/teams/${personal}/invitations`, { email: people.carol.email, role: "owner" }),
      409,
      "personal-team",
    );
    await expectProblem(
      await api("bob", `/teams/${personal}/members`, { method: "POST", body: { email: people.carol.email, role: "owner" } }),
      409,
      "personal-team",
    );
    expect(await db.teamInvitation.count({ where: { teamId: personal } })).toBe(0);
  });

  it("creates no credential for a user in a personal team shared before sharing was refused, once they were removed", { timeout: 60_000 }, async () => {
    const personal = `team_personal_${people.bob.id}`;
    await db.teamMember.create({ data: { teamId: personal, userId: people.carol.id, role: "owner" } });
    expect((await people.carol.client.send("DELETE", `/api/portal/teams/${personal}/members/${people.bob.id}`)).status).toBe(200);
    const applications = await db.application.count({ where: { teamId: personal } });

    const body = { application: "Bob Later", environment: "platform-dev" };
    const viaApi = await expectProblem(await api("bob", "/credentials", { method: "POST", body }), 400, "validation-failed");
    expect(viaApi.detail).toContain("body team");
    await expectProblem(await people.bob.client.post("/api/portal/credentials", body), 400, "validation-failed");
    const viaCli = await runAdmin(server.databaseUrl, "credential", "create", "--app", "Bob CLI", "--env", "platform-dev", "--owner", people.bob.email);
    expect(viaCli.code).not.toBe(0);
    expect(viaCli.stderr).toContain("--owner");
    expect(await db.application.count({ where: { teamId: personal } })).toBe(applications);
    expect(await db.credential.count({ where: { application: { teamId: personal }, status: "ACTIVE" } })).toBe(1);
  });
});

describe("a removed member hears nothing more of the team's applications", () => {
  it("sends the credential.rotated event of an application bob created to nobody once bob is removed", async () => {
    const teamId = await newTeam("erin", "Pay Sync");
    expect((await accept("bob", (await invite("erin", teamId, "bob", "admin")).token)).status).toBe(200);
    const created = await people.bob.client.post("/api/portal/credentials", { application: "Pay Sync", environment: "platform-dev", team: teamId });
    expect(created.status).toBe(201);
    const { clientId } = ((await created.json()) as { credential: { clientId: string } }).credential;
    const rotate = () => people.erin.client.post(`/api/portal/credentials/${clientId}/rotate`, { graceHours: 0, expiresInDays: 0 });

    expect((await rotate()).status).toBe(201);
    const whileMember = await db.eventDelivery.findMany({ where: { event: { type: "credential.rotated", clientId } }, select: { userId: true } });
    expect(whileMember).toEqual([{ userId: people.bob.id }]);

    expect((await people.erin.client.send("DELETE", `/api/portal/teams/${teamId}/members/${people.bob.id}`)).status).toBe(200);
    expect((await rotate()).status).toBe(201);
    const events = await db.outboxEvent.findMany({
      where: { type: "credential.rotated", clientId },
      include: { deliveries: true },
      orderBy: { occurredAt: "asc" },
    });
    expect(events).toHaveLength(2);
    expect(events[1]?.deliveries).toEqual([]);
  });
});
