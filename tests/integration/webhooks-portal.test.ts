// Settings → Webhooks' JSON routes on the full server, whose own delivery worker POSTs to a real
// receiver: team roles on every route, and a delivery the standardwebhooks package verifies.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../lib/db";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { openDb } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

let receiver: WebhookReceiver;
let server: TestServer;
let db: Db;
let developer: PortalClient;
let other: PortalClient;
let teamId: string;

type Created = { endpoint: { id: string; events: string[]; enabled: boolean }; secret: string };

function waitFor<T>(what: string, find: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return vi.waitFor(
    async () => {
      const found = await find();
      if (found === undefined) throw new Error(`no ${what} yet`);
      return found;
    },
    { timeout: 30_000, interval: 200 },
  );
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // The receiver listens on loopback over http, which only OUTBOUND_ALLOW_PRIVATE=1 allows.
  server = await startServer({ env: { OUTBOUND_ALLOW_PRIVATE: "1" } });
  db = openDb(server);
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
  other = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
  const membership = await db.teamMember.findFirstOrThrow({ where: { user: { email: "developer@example.com" }, team: { personal: true } } });
  teamId = membership.teamId;
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await receiver?.close();
});

describe("webhook routes", () => {
  it("registers an endpoint, delivers a signed event from the server's worker, logs it and replays it", async () => {
    const created = await developer.post("/api/portal/webhooks", { teamId, url: receiver.url, events: ["credential.rotated"] });
    expect(created.status).toBe(201);
    const { endpoint, secret } = (await created.json()) as Created;
    expect(endpoint).toMatchObject({ events: ["credential.rotated"], enabled: true });
    expect(secret).toMatch(/^whsec_/);

    const listed = await developer.get(`/api/portal/webhooks?team=${teamId}`);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).not.toContain(secret);

    const credential = await db.credential.findFirstOrThrow({ where: { application: { teamId }, status: "ACTIVE" } });
    expect((await developer.post(`/api/portal/credentials/${credential.clientId}/rotate`, { graceHours: 0 })).status).toBe(201);
    const request = await waitFor("webhook", () => receiver.received[0]);
    expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({
      type: "credential.rotated",
      data: { clientId: credential.clientId },
    });

    const log = await waitFor("delivered log entry", async () => {
      const response = await developer.get(`/api/portal/webhooks/${endpoint.id}/deliveries`);
      const { deliveries } = (await response.json()) as { deliveries: { id: string; status: string; attempts: { statusCode: number }[] }[] };
      return deliveries[0]?.status === "delivered" ? deliveries : undefined;
    });
    expect(log).toMatchObject([{ status: "delivered", attempts: [{ statusCode: 200 }] }]);

    const replayed = await developer.post(`/api/portal/webhooks/${endpoint.id}/deliveries/${log[0]!.id}/replay`);
    expect(replayed.status).toBe(202);
    const again = await waitFor("replayed webhook", () => receiver.received[1]);
    expect(again.headers["webhook-id"]).toBe(request.headers["webhook-id"]);
    expect(new Webhook(secret).verify(again.body, again.headers as Record<string, string>)).toMatchObject({ type: "credential.rotated" });
  });

  it("answers an outsider 404 and a team member 403 on changes, and lets the member read", async () => {
    const { endpoint } = (await (
      await developer.post("/api/portal/webhooks", { teamId, url: receiver.url, events: ["credential.revoked"] })
    ).json()) as Created;
    const changes = [
      () => other.post(`/api/portal/webhooks/${endpoint.id}/rotate-secret`),
      () => other.send("PATCH", `/api/portal/webhooks/${endpoint.id}`, { enabled: false }),
      () => other.send("DELETE", `/api/portal/webhooks/${endpoint.id}`),
      () => other.post("/api/portal/webhooks", { teamId, url: receiver.url, events: ["credential.revoked"] }),
    ];
    for (const change of [
      ...changes,
      () => other.get(`/api/portal/webhooks?team=${teamId}`),
      () => other.get(`/api/portal/webhooks/${endpoint.id}/deliveries`),
    ]) {
      const response = await change();
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }

    const outsider = await db.user.findUniqueOrThrow({ where: { email: "admin@example.com" } });
    await db.teamMember.create({ data: { teamId, userId: outsider.id, role: "member" } });
    for (const change of changes) {
      const response = await change();
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ type: expect.stringContaining("/problems/team-role-required") });
    }
    expect((await other.get(`/api/portal/webhooks?team=${teamId}`)).status).toBe(200);
    expect((await other.get(`/api/portal/webhooks/${endpoint.id}/deliveries`)).status).toBe(200);

    const disabled = await developer.send("PATCH", `/api/portal/webhooks/${endpoint.id}`, { enabled: false });
    expect(await disabled.json()).toMatchObject({ endpoint: { enabled: false, disabledReason: "disabled by a user" } });
    expect((await developer.send("DELETE", `/api/portal/webhooks/${endpoint.id}`)).status).toBe(200);
    expect(await db.webhookEndpoint.findUnique({ where: { id: endpoint.id } })).toBeNull();
  });

  it("names the field at fault and refuses anonymous callers", async () => {
    const invalid = await developer.post("/api/portal/webhooks", { teamId, url: "ftp://example.com/", events: ["signup.pending"] });
    expect(invalid.status).toBe(400);
    const problem = (await invalid.json()) as { errors: { field: string }[] };
    expect(problem.errors.map((error) => error.field).sort()).toEqual(["events.0", "url"]);
    const anonymous = await fetch(`${server.url}/api/portal/webhooks?team=${teamId}`);
    expect(anonymous.status).toBe(401);
  });
});
