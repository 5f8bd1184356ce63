// The management API's webhook operations, called with personal access tokens on the full server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { runAdmin } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { openDb } from "./gateway-support";

let server: TestServer;
let db: Db;
let teamId: string;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  teamId = (await db.teamMember.findFirstOrThrow({ where: { user: { email: "developer@example.com" }, team: { personal: true } } })).teamId;
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

async function tokenFor(email: string, scopes: string): Promise<string> {
  const run = await runAdmin(server.databaseUrl, "token", "create", "--user", email, "--scopes", scopes, "--expires-in", "7d", "--json");
  if (run.code !== 0) throw new Error(run.stderr);
  return (JSON.parse(run.stdout) as { token: string }).token;
}

function api(token: string, path: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${server.url}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

type WithSecret = { endpoint: { id: string; url: string; events: string[] }; secret: string };

describe("webhooks in the management API", () => {
  it("registers, lists, rotates, logs, replays and deletes a team's endpoint, each under its scope and team role", async () => {
    const owner = await tokenFor("developer@example.com", "webhooks:read webhooks:write credentials:read credentials:write");
    const url = "https://93.184.215.14/api-hooks";
    const created = await api(owner, "/webhooks", { method: "POST", body: { teamId, url, events: ["credential.rotated"] } });
    expect(created.status).toBe(201);
    const { endpoint, secret } = (await created.json()) as WithSecret;
    expect(endpoint).toMatchObject({ url, events: ["credential.rotated"] });
    expect(secret).toMatch(/^whsec_/);

    const listed = await api(owner, `/webhooks?team=${teamId}`);
    expect(await listed.json()).toMatchObject({ endpoints: [{ id: endpoint.id, url }] });
    const rotated = await api(owner, `/webhooks/${endpoint.id}/secrets`, { method: "POST" });
    expect(rotated.status).toBe(201);
    const { secret: next } = (await rotated.json()) as WithSecret;
    expect(next).not.toBe(secret);

    const credential = await db.credential.findFirstOrThrow({ where: { application: { teamId }, status: "ACTIVE" } });
    expect((await api(owner, `/credentials/${credential.clientId}/secrets`, { method: "POST", body: { overlapSeconds: 0 } })).status).toBe(201);
    const log = (await (await api(owner, `/webhooks/${endpoint.id}/deliveries`)).json()) as { deliveries: { id: string; type: string }[] };
    expect(log.deliveries).toMatchObject([{ type: "credential.rotated" }]);
    const replayed = await api(owner, `/webhooks/${endpoint.id}/deliveries/${log.deliveries[0]!.id}/replay`, { method: "POST" });
    expect(replayed.status).toBe(202);
    expect(await replayed.json()).toMatchObject({ delivery: { type: "credential.rotated", status: "pending" } });

    const readOnly = await tokenFor("developer@example.com", "credentials:read");
    expect((await api(readOnly, `/webhooks?team=${teamId}`)).status).toBe(403);

    const outsiderToken = await tokenFor("admin@example.com", "webhooks:read webhooks:write");
    expect((await api(outsiderToken, `/webhooks?team=${teamId}`)).status).toBe(404);
    expect((await api(outsiderToken, `/webhooks/${endpoint.id}/deliveries`)).status).toBe(404);
    const admin = await db.user.findUniqueOrThrow({ where: { email: "admin@example.com" } });
    await db.teamMember.create({ data: { teamId, userId: admin.id, role: "member" } });
    expect((await api(outsiderToken, `/webhooks?team=${teamId}`)).status).toBe(200);
    const refused = await api(outsiderToken, `/webhooks/${endpoint.id}/secrets`, { method: "POST" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ type: `${server.url}/problems/team-role-required` });

    const deleted = await api(owner, `/webhooks/${endpoint.id}`, { method: "DELETE" });
    expect(await deleted.json()).toEqual({ deleted: endpoint.id });
    expect((await api(owner, `/webhooks/${endpoint.id}/deliveries`)).status).toBe(404);
  });

  it("documents the webhook operations with their scopes in the OpenAPI document", async () => {
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    expect(document.paths["/webhooks"].post["x-required-scope"]).toBe("webhooks:write");
    expect(document.paths["/webhooks"].get["x-required-scope"]).toBe("webhooks:read");
    expect(document.paths["/webhooks"].post.requestBody.content["application/json"].schema).toMatchObject({
      properties: { events: { type: "array", items: { enum: expect.arrayContaining(["credential.rotated", "api.deprecated"]) } } },
    });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/webhooks/{id}/secrets", "/webhooks/{id}", "/webhooks/{id}/deliveries", "/webhooks/{id}/deliveries/{deliveryId}/replay"]),
    );
  });
});
