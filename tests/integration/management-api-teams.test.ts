// The management API's team operations, called with personal access tokens on the full server, which emails what they record.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../lib/db";
import { runAdmin } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink";
import { openDb } from "./gateway-support";

let server: TestServer;
let db: Db;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer({ env: { SMTP_URL: sink.url, MAIL_FROM: "Test Portal <portal@example.test>" } });
  db = openDb(server);
  const created = await runAdmin(
    server.databaseUrl,
    "user",
    "create",
    "--email",
    "teammate@example.com",
    "--password",
    "teammate-password-1",
    "--role",
    "DEVELOPER",
  );
  if (created.code !== 0) throw new Error(created.stderr);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await sink?.close();
});

async function tokenFor(email: string, scopes: string): Promise<{ token: string; id: string }> {
  const run = await runAdmin(server.databaseUrl, "token", "create", "--user", email, "--scopes", scopes, "--expires-in", "7d", "--json");
  if (run.code !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { token: string; id: string };
}

function api(token: string, path: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${server.url}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function problemOf(response: Response): Promise<{ status: number; type: string; contentType: string | null }> {
  const body = (await response.json()) as { type: string };
  return { status: response.status, type: body.type.replace(`${server.url}/problems/`, ""), contentType: response.headers.get("content-type") };
}

const userId = async (email: string) => (await db.user.findUniqueOrThrow({ where: { email } })).id;

describe("teams in the management API", () => {
  it("creates a team, invites through the outbox, lists it and removes a member, each audited under the token", async () => {
    const owner = await tokenFor("developer@example.com", "teams:read teams:write");
    const created = await api(owner.token, "/teams", { method: "POST", body: { name: "Payments" } });
    expect(created.status).toBe(201);
    const team = (await created.json()) as { id: string; name: string; personal: boolean };
    expect(team).toMatchObject({ name: "Payments", personal: false });
    expect(await db.teamMember.findMany({ where: { teamId: team.id }, select: { role: true } })).toEqual([{ role: "owner" }]);

    const taken = await api(owner.token, "/teams", { method: "POST", body: { name: "Payments" } });
    expect(await problemOf(taken)).toMatchObject({ status: 400, type: "validation-failed", contentType: "application/problem+json" });
    expect((await api(owner.token, "/teams", { method: "POST", body: { name: "Ops", extra: 1 } })).status).toBe(400);

    const invited = await api(owner.token, `/teams/${team.id}/members`, { method: "POST", body: { email: "Teammate@Example.com", role: "admin" } });
    expect(invited.status).toBe(201);
    const invitation = (await invited.json()) as { id: string; email: string; role: string; link: string };
    expect(invitation).toMatchObject({ teamId: team.id, teamName: "Payments", email: "teammate@example.com", role: "admin" });
    expect(invitation.link).toMatch(new RegExp(`^${server.url}/teams/invitations/[A-Za-z0-9_-]{43}$`));
    const event = await db.outboxEvent.findFirstOrThrow({ where: { type: "team.invitation" }, orderBy: { occurredAt: "desc" } });
    expect(event.payload).toMatchObject({ invitationId: invitation.id, teamId: team.id, email: "teammate@example.com", invitedBy: `token:${owner.id}` });
    expect(JSON.stringify(event.payload)).not.toContain(invitation.link.split("/").pop());
    const mail = await vi.waitFor(
      () => {
        const found = sink.received.find((received) => received.eventId === event.id);
        if (!found) throw new Error("no team.invitation email yet");
        return found;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(mail).toMatchObject({ to: ["teammate@example.com"], event: "team.invitation" });
    expect(mail.text).toContain(invitation.link);

    const listed = (await (await api(owner.token, "/teams")).json()) as { teams: { id: string; personal: boolean; role: string; invitations: unknown[] }[] };
    expect(listed.teams[0]).toMatchObject({ personal: true, role: "owner" });
    expect(listed.teams.find((entry) => entry.id === team.id)).toMatchObject({
      name: "Payments",
      role: "owner",
      members: [{ role: "owner", user: { email: "developer@example.com" } }],
      invitations: [{ id: invitation.id, email: "teammate@example.com", role: "admin" }],
      applications: [],
    });

    const teammate = await userId("teammate@example.com");
    await db.teamMember.create({ data: { teamId: team.id, userId: teammate, role: "member" } });
    const removed = await api(owner.token, `/teams/${team.id}/members/${teammate}`, { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ teamId: team.id, removed: teammate });
    expect(await db.teamMember.count({ where: { teamId: team.id, userId: teammate } })).toBe(0);
    expect(await problemOf(await api(owner.token, `/teams/${team.id}/members/${teammate}`, { method: "DELETE" }))).toMatchObject({
      status: 404,
      type: "not-found",
    });

    const lastOwner = await api(owner.token, `/teams/${team.id}/members/${await userId("developer@example.com")}`, { method: "DELETE" });
    expect(await problemOf(lastOwner)).toMatchObject({ status: 409, type: "last-team-owner", contentType: "application/problem+json" });

    const actions = await db.auditEvent.findMany({ where: { actorLabel: `token:${owner.id}`, targetId: team.id }, orderBy: { at: "asc" } });
    expect(actions.map((entry) => entry.action)).toEqual(["team.create", "team.invite", "team.member.remove"]);
  });

  it("enforces the scopes and the team roles: a member gets 403, an outsider 404", async () => {
    const owner = await tokenFor("developer@example.com", "teams:read teams:write");
    const team = (await (await api(owner.token, "/teams", { method: "POST", body: { name: "Search" } })).json()) as { id: string };
    const readOnly = await tokenFor("developer@example.com", "teams:read");
    const refused = await api(readOnly.token, "/teams", { method: "POST", body: { name: "Nope" } });
    expect(await problemOf(refused)).toMatchObject({ status: 403, type: "access-token-scope-missing" });
    expect((await api(readOnly.token, "/teams")).status).toBe(200);
    const noTeams = await tokenFor("developer@example.com", "credentials:read");
    expect((await api(noTeams.token, "/teams")).status).toBe(403);

    const outsider = await tokenFor("teammate@example.com", "teams:read teams:write");
    const ownerId = await userId("developer@example.com");
    for (const response of [
      await api(outsider.token, `/teams/${team.id}/members`, { method: "POST", body: { email: "someone@example.com" } }),
      await api(outsider.token, `/teams/${team.id}/members/${ownerId}`, { method: "DELETE" }),
      await api(outsider.token, "/teams/team_nowhere/members", { method: "POST", body: { email: "someone@example.com" } }),
    ]) {
      expect(await problemOf(response)).toMatchObject({ status: 404, type: "not-found" });
    }
    const outsiderTeams = (await (await api(outsider.token, "/teams")).json()) as { teams: { id: string }[] };
    expect(outsiderTeams.teams.map((entry) => entry.id)).not.toContain(team.id);

    await db.teamMember.create({ data: { teamId: team.id, userId: await userId("teammate@example.com"), role: "member" } });
    for (const response of [
      await api(outsider.token, `/teams/${team.id}/members`, { method: "POST", body: { email: "someone@example.com" } }),
      await api(outsider.token, `/teams/${team.id}/members/${ownerId}`, { method: "DELETE" }),
    ]) {
      expect(await problemOf(response)).toMatchObject({ status: 403, type: "team-role-required" });
    }
    expect(await db.teamInvitation.count({ where: { teamId: team.id } })).toBe(0);
    expect(await db.teamMember.count({ where: { teamId: team.id, userId: ownerId } })).toBe(1);
    const listed = (await (await api(outsider.token, "/teams")).json()) as { teams: { id: string; role: string }[] };
    expect(listed.teams.find((entry) => entry.id === team.id)).toMatchObject({ role: "member" });
  });

  it("creates a credential in a team where the caller is an admin, and refuses a member", async () => {
    const owner = await tokenFor("developer@example.com", "teams:write");
    const team = (await (await api(owner.token, "/teams", { method: "POST", body: { name: "Billing" } })).json()) as { id: string };
    const teammate = await userId("teammate@example.com");
    await db.teamMember.create({ data: { teamId: team.id, userId: teammate, role: "member" } });
    const token = await tokenFor("teammate@example.com", "credentials:read credentials:write");
    const body = { application: "Billing sync", environment: "platform-dev", team: team.id };

    const asMember = await api(token.token, "/credentials", { method: "POST", body });
    expect(await problemOf(asMember)).toMatchObject({ status: 403, type: "team-role-required" });
    expect(await db.application.count({ where: { teamId: team.id } })).toBe(0);

    await db.teamMember.update({ where: { teamId_userId: { teamId: team.id, userId: teammate } }, data: { role: "admin" } });
    const asAdmin = await api(token.token, "/credentials", { method: "POST", body });
    expect(asAdmin.status).toBe(201);
    const { credential } = (await asAdmin.json()) as { credential: { clientId: string } };
    const stored = await db.credential.findUniqueOrThrow({
      where: { clientId: credential.clientId },
      select: { application: { select: { name: true, teamId: true } } },
    });
    expect(stored.application).toEqual({ name: "Billing sync", teamId: team.id });

    const elsewhere = await api(token.token, "/credentials", { method: "POST", body: { ...body, team: "team_nowhere" } });
    expect(await problemOf(elsewhere)).toMatchObject({ status: 400, type: "validation-failed" });
  });

  it("documents the team operations with their scopes in the OpenAPI document", async () => {
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    expect(document.paths["/teams"].get["x-required-scope"]).toBe("teams:read");
    expect(document.paths["/teams"].post["x-required-scope"]).toBe("teams:write");
    expect(Object.keys(document.paths["/teams/{teamId}/members/{userId}"].delete.responses)).toEqual(expect.arrayContaining(["200", "403", "404", "409"]));
    expect(document.paths["/credentials"].post.requestBody.content["application/json"].schema.properties.team).toMatchObject({ type: "string" });
  });
});
