import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { CLI_ACTOR } from "../../lib/portal/audit";
import { createCredential, ensureApplication } from "../../lib/portal/credentials";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { accessToken, eventually, openDb, SERVER_AUTH_SECRET } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

let server: TestServer;
let db: Db;
let developer: PortalClient;
let admin: PortalClient;
let requestId: string;
let clientId: string;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
  const owner = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
  const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: owner.id, name: "Usage App" });
  const { credential, secret } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa", authSecret: SERVER_AUTH_SECRET });
  clientId = credential.clientId;
  const token = await accessToken(server, "sso-qa", { clientId, clientSecret: secret!.clientSecret });
  const response = await fetch(`${server.url}/gw/sso-qa/notifications/v1/notifications?limit=zero`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(400);
  requestId = ((await response.json()) as { requestId: string }).requestId;
  expect(await eventually(async () => (await db.requestLog.count({ where: { requestId } })) === 1)).toBe(true);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const lookup = async (client: PortalClient, id: string) => {
  const response = await client.get(`/settings/usage?requestId=${encodeURIComponent(id)}`);
  expect(response.status).toBe(200);
  return response.text();
};

describe("Settings → Usage", () => {
  it("looks up the developer's own request by its request id", async () => {
    const html = await lookup(developer, requestId);
    expect(html).toContain(`aria-label="Request ${requestId}"`);
    expect(html).toContain("GET /v1/notifications");
    expect(html).toContain(">400<");
    expect(html).toContain(clientId);
    expect(html).toContain("validation-failed");
  });

  it("answers anyone else's request exactly like an unknown id", async () => {
    const foreign = (await lookup(admin, requestId)).replaceAll(requestId, "ID");
    const unknown = (await lookup(admin, "req_unknown")).replaceAll("req_unknown", "ID");
    expect(foreign).toContain("was not found among your requests");
    expect(foreign).not.toContain(clientId);
    const result = (html: string) => /<p role="status"[^>]*>.*?<\/p>/s.exec(html)?.[0];
    expect(result(foreign)).toBe(result(unknown));
  });

  it("charts the developer's own traffic and nobody else's", async () => {
    const mine = await (await developer.get(`/settings/usage?client=${clientId}`)).text();
    expect(mine).toContain("Requests per hour");
    expect(mine).toContain("notifications GET /v1/notifications");
    expect(mine).toContain('href="/problems/validation-failed"');
    const theirs = await (await admin.get("/settings/usage?range=30d")).text();
    expect(theirs).toContain("You have no credentials yet");
    expect(theirs).not.toContain(clientId);
  });

  it("is for signed-in users only", async () => {
    const response = await fetch(`${server.url}/settings/usage`, { redirect: "manual" });
    expect([302, 303, 307]).toContain(response.status);
    expect(response.headers.get("location")).toContain("/login");
  });
});
