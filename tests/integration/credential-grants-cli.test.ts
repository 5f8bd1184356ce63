// `credential grant` and `credential revoke-grant`: access to an API managed directly,
// without an access request, stored and audited as an approval stores it, and applied
// by the gateway within its 5 s of credential-state caching.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { credentialsLackingScopes } from "../../lib/credentials/grants";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { runAdmin } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { accessToken, basic, eventually, openDb, tokenRequest } from "./gateway-support";

const ENV = "sso-qa";
let server: TestServer;
let db: Db;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

async function cli(...args: string[]) {
  const run = await runAdmin(server.databaseUrl, ...args);
  return { ...run, json: run.code === 0 && args.includes("--json") ? JSON.parse(run.stdout) : undefined };
}

async function createdCredential(app: string, ...extra: string[]): Promise<{ clientId: string; clientSecret: string }> {
  const created = await cli("credential", "create", "--app", app, "--env", ENV, ...extra, "--json");
  expect(created.code).toBe(0);
  return created.json;
}

async function listed(app: string) {
  const list = await cli("credential", "list", "--env", ENV, "--app", app, "--json");
  expect(list.code).toBe(0);
  return list.json.credentials[0] as { apis: string[]; scopes: string[] };
}

async function storedScopes(clientId: string): Promise<string[] | null> {
  const grant = await db.grant.findFirst({ where: { credential: { clientId }, api: { slug: "notifications" } } });
  return grant ? grant.scopes.split(" ") : null;
}

/** A token with `scope`, once the gateway's kept state of the credential carries the grant. */
async function tokenOnceGranted(client: { clientId: string; clientSecret: string }, scope: string): Promise<string> {
  let token = "";
  const issued = await eventually(async () => {
    const response = await tokenRequest(server, ENV, {
      headers: { authorization: basic(client.clientId, client.clientSecret) },
      body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
    });
    if (response.status === 200) token = ((await response.json()) as { access_token: string }).access_token;
    return response.status === 200;
  });
  expect(issued).toBe(true);
  return token;
}

function markRead(token: string, id: string) {
  return fetch(`${server.url}/gw/${ENV}/notifications/v1/notifications/${id}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ status: "read" }),
  });
}

function list(token: string) {
  return fetch(`${server.url}/gw/${ENV}/notifications/v1/notifications?limit=1`, { headers: { authorization: `Bearer ${token}` } });
}

describe("credential grant and revoke-grant", () => {
  it("grants every scope by default, narrows with --scopes, revokes, audits each, and the gateway follows", { timeout: 120_000 }, async () => {
    const client = await createdCredential("Grant App", "--scope", "notifications:read");
    expect(await listed("Grant App")).toMatchObject({ apis: ["notifications"], scopes: ["notifications:read"] });
    const environment = await db.environment.findUniqueOrThrow({ where: { slug: ENV } });
    const [id] = (await createNotifications({ db, environmentId: environment.id, recipients: { clientIds: [client.clientId] }, title: "Granted" })) as [string];
    const readOnly = await accessToken(server, ENV, client);
    expect((await markRead(readOnly, id)).status).toBe(403);

    const granted = await cli("credential", "grant", "--client", client.clientId, "--api", "notifications", "--json");
    expect(granted.code).toBe(0);
    expect(granted.json).toMatchObject({
      clientId: client.clientId,
      env: ENV,
      application: "Grant App",
      api: "notifications",
      scopes: ["notifications:read", "notifications:write"],
    });
    expect(await storedScopes(client.clientId)).toEqual(["notifications:read", "notifications:write"]);
    expect(await listed("Grant App")).toMatchObject({ apis: ["notifications"], scopes: ["notifications:read", "notifications:write"] });
    const writer = await tokenOnceGranted(client, "notifications:write");
    expect((await markRead(writer, id)).status).toBe(200);

    const narrowed = await cli("credential", "grant", "--client", client.clientId, "--api", "notifications", "--scopes", "notifications:read", "--json");
    expect(narrowed.code, narrowed.stderr).toBe(0);
    expect(narrowed.json.scopes).toEqual(["notifications:read"]);
    expect(await storedScopes(client.clientId)).toEqual(["notifications:read"]);
    // The grant, not only the token, must still hold the operation's scope.
    expect(await eventually(async () => (await markRead(writer, id)).status === 403)).toBe(true);

    const revoked = await cli("credential", "revoke-grant", "--client", client.clientId, "--api", "notifications", "--json");
    expect(revoked.code).toBe(0);
    expect(revoked.json).toMatchObject({ clientId: client.clientId, env: ENV, api: "notifications" });
    expect(await storedScopes(client.clientId)).toBeNull();
    expect(await listed("Grant App")).toMatchObject({ apis: [], scopes: [] });
    expect(await eventually(async () => (await list(readOnly)).status === 403)).toBe(true);
    const refused = await list(readOnly);
    expect(((await refused.json()) as { type: string }).type).toMatch(/\/problems\/api-not-granted$/);

    const audit = await db.auditEvent.findMany({ where: { targetId: client.clientId, action: { startsWith: "credential.grant" } }, orderBy: { at: "asc" } });
    expect(audit.map((event) => [event.action, event.actorLabel, event.details])).toEqual([
      ["credential.grant", "cli", { api: "notifications", scopes: "notifications:read notifications:write" }],
      ["credential.grant", "cli", { api: "notifications", scopes: "notifications:read" }],
      ["credential.grant.revoke", "cli", { api: "notifications" }],
    ]);

    const again = await cli("credential", "revoke-grant", "--client", client.clientId, "--api", "notifications");
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("has no grant for the API");
  });

  it("names the credentials whose grant lacks a scope the API defines, until a grant gives them all", { timeout: 120_000 }, async () => {
    const client = await createdCredential("Gap App");
    const api = await db.api.findUniqueOrThrow({ where: { slug: "notifications" } });
    await db.apiScope.create({ data: { apiId: api.id, name: "notifications:admin", description: "Added after the grant" } });
    try {
      const gaps = await credentialsLackingScopes({ db, apiSlug: "notifications" });
      expect(gaps.find((gap) => gap.clientId === client.clientId)).toEqual({
        clientId: client.clientId,
        application: "Gap App",
        env: ENV,
        lacking: ["notifications:admin"],
      });
      expect((await cli("credential", "grant", "--client", client.clientId, "--api", "notifications")).code).toBe(0);
      expect((await credentialsLackingScopes({ db, apiSlug: "notifications" })).map((gap) => gap.clientId)).not.toContain(client.clientId);
    } finally {
      await db.apiScope.delete({ where: { apiId_name: { apiId: api.id, name: "notifications:admin" } } });
    }
  });

  it("refuses a revoked credential", { timeout: 60_000 }, async () => {
    const client = await createdCredential("Revoked Grant App");
    expect((await cli("credential", "revoke", client.clientId)).code).toBe(0);
    const refused = await cli("credential", "grant", "--client", client.clientId, "--api", "notifications");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`The credential ${client.clientId} is revoked.`);
  });

  it.each([
    [["--client", "gci_000000000000000000000000", "--api", "notifications"], 'There is no credential "gci_000000000000000000000000"'],
    [["--api", "nowhere"], 'There is no API "nowhere"'],
    [["--api", "notifications", "--scopes", "notifications:read nope:write"], '--scopes: the API "notifications" defines no scope "nope:write"'],
    [["--api", "platform-token"], '--api: the API "platform-token" is not available in the environment "sso-qa"'],
    [["--api", "global-sso-token"], '--api: the API "global-sso-token" is public'],
    [["--api", "notifications", "--scopes", " "], "--scopes needs at least one scope"],
    [["--api", "notifications", "--scope", "notifications:read"], "unknown option --scope"],
    [[], "--api is required"],
  ])("grant exits non-zero with a one-line reason for %j", { timeout: 60_000 }, async (args, reason) => {
    const client = await db.credential.findFirstOrThrow({ where: { environment: { slug: ENV }, status: "ACTIVE" } });
    const withClient = args.includes("--client") ? args : ["--client", client.clientId, ...args];
    const result = await cli("credential", "grant", ...withClient);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(reason);
  });

  it.each([
    [["--client", "gci_000000000000000000000000", "--api", "notifications"], 'There is no credential "gci_000000000000000000000000"'],
    [["--api", "nowhere"], 'There is no API "nowhere"'],
    [[], "--api is required"],
  ])("revoke-grant exits non-zero with a one-line reason for %j", { timeout: 60_000 }, async (args, reason) => {
    const client = await db.credential.findFirstOrThrow({ where: { environment: { slug: ENV }, status: "ACTIVE" } });
    const withClient = args.includes("--client") ? args : ["--client", client.clientId, ...args];
    const result = await cli("credential", "revoke-grant", ...withClient);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(reason);
  });
});
