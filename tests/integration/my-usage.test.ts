import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { rollUpRequestLog } from "../../lib/usage/request-log-rollup";
import { usageReport } from "../../lib/usage/usage-report";
import { accessToken, basic, eventually, openDb, SERVER_AUTH_SECRET, signWithRealKey, tokenRequest } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

let server: TestServer;
let db: Db;
let developer: PortalClient;
let admin: PortalClient;
let requestId: string;
let clientId: string;
let clientSecret: string;
let applicationId: string;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
  const owner = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
  const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: owner.id, name: "Usage App" });
  const { credential, secret } = await createCredential({
    db,
    actor: CLI_ACTOR,
    applicationId: application.id,
    envSlug: "sso-qa",
    authSecret: SERVER_AUTH_SECRET,
  });
  clientId = credential.clientId;
  clientSecret = secret!.clientSecret;
  applicationId = application.id;
  const token = await accessToken(server, "sso-qa", { clientId, clientSecret });
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

/** The problem type stored with a request, once its row is written. */
async function storedProblem(id: string): Promise<{ status: number; problem: string | null }> {
  let row: { status: number; problem: string | null } | null = null;
  await eventually(async () => (row = await db.requestLog.findFirst({ where: { requestId: id }, select: { status: true, problem: true } })) !== null);
  if (!row) throw new Error(`no request log row for ${id}`);
  return row;
}

const gateway = (path: string, id: string, token: string) =>
  fetch(`${server.url}/gw/${path}`, { headers: { authorization: `Bearer ${token}`, "x-request-id": id } });

describe("errors by problem type", () => {
  let limitedClientId: string;
  let rateLimitedId: string;

  beforeAll(async () => {
    const expired = await signWithRealKey(server, db, { envSlug: "sso-qa", clientId, claims: { iat: 1_700_000_000, exp: 1_700_000_060 } });
    expect((await gateway("sso-qa/notifications/v1/notifications", "pt-expired", expired)).status).toBe(401);
    const token = await accessToken(server, "sso-qa", { clientId, clientSecret });
    expect((await gateway("sso-qa/notifications/v1/notifications/ntf_missing", "pt-not-found", token)).status).toBe(404);
    expect((await gateway("sso-qa/notifications/v1/notifications", "pt-ok", token)).status).toBe(200);
    const refused = await tokenRequest(server, "sso-qa", {
      headers: { authorization: basic(clientId, "gsk_wrong"), "x-request-id": "pt-invalid-client" },
      body: "grant_type=client_credentials",
    });
    expect(refused.status).toBe(401);

    // A credential of its own, one request per second, so that the budget is spent at once.
    const { credential, secret } = await createCredential({ db, actor: CLI_ACTOR, applicationId, envSlug: "platform-dev", authSecret: SERVER_AUTH_SECRET });
    limitedClientId = credential.clientId;
    await db.credential.update({ where: { clientId: limitedClientId }, data: { rateLimitBurst: 1, rateLimitPerSecond: 1 } });
    const limitedToken = await accessToken(server, "platform-dev", { clientId: limitedClientId, clientSecret: secret!.clientSecret });
    for (let attempt = 0; attempt < 5 && !rateLimitedId; attempt += 1) {
      const response = await gateway("platform-dev/notifications/v1/notifications", `pt-limited-${attempt}`, limitedToken);
      if (response.status === 429) rateLimitedId = `pt-limited-${attempt}`;
    }
    expect(rateLimitedId).toBeDefined();
  });

  it("stores the problem type the gateway answered with, and the token endpoint's OAuth error", async () => {
    expect(await storedProblem("pt-expired")).toEqual({ status: 401, problem: "token-expired" });
    expect(await storedProblem("pt-not-found")).toEqual({ status: 404, problem: "not-found" });
    expect(await storedProblem("pt-invalid-client")).toEqual({ status: 401, problem: "invalid_client" });
    expect(await storedProblem(rateLimitedId)).toEqual({ status: 429, problem: "rate-limited" });
    expect(await storedProblem("pt-ok")).toEqual({ status: 200, problem: null });
    expect(await storedProblem(requestId)).toEqual({ status: 400, problem: "validation-failed" });
  });

  it("shows the recorded problem type in the lookup, linked to its page", async () => {
    const expired = await lookup(developer, "pt-expired");
    expect(expired).toContain('href="/problems/token-expired"');
    expect(expired).not.toContain("token-invalid");
    const oauth = await lookup(developer, "pt-invalid-client");
    expect(oauth).toContain("invalid_client");
    expect(oauth).not.toContain('href="/problems/invalid_client"');
    const ok = await lookup(developer, "pt-ok");
    expect(ok).toMatch(/Problem type<\/dt><dd[^>]*>none<\/dd>/);
  });

  it("reports the error rate by problem type, and the usage pages link each type", async () => {
    const report = await usageReport(db, { clients: [clientId, limitedClientId] }, "7d");
    expect(report.byProblem).toEqual(
      expect.arrayContaining([
        { problem: "validation-failed", status: 400, requests: 1 },
        { problem: "token-expired", status: 401, requests: 1 },
        { problem: "invalid_client", status: 401, requests: 1 },
        { problem: "not-found", status: 404, requests: 1 },
        { problem: "rate-limited", status: 429, requests: 1 },
      ]),
    );
    expect(report.byProblem).toHaveLength(5);
    expect(report.totals.errors).toBe(5);

    for (const html of [await (await developer.get("/settings/usage")).text(), await (await admin.get("/admin/usage")).text()]) {
      expect(html).toContain("Error rate by problem type");
      for (const code of ["token-expired", "not-found", "rate-limited", "validation-failed"]) expect(html).toContain(`href="/problems/${code}"`);
      expect(html).toContain("invalid_client");
    }
  });

  // Last in the file: it rolls up every request this server has logged.
  it("keeps the split once the rows are rolled up into hourly aggregates", async () => {
    const scope = { clients: [clientId, limitedClientId] };
    const before = await usageReport(db, scope, "7d");
    await server.settledOutput();
    await rollUpRequestLog(db, { retentionDays: 0, now: new Date(Date.now() + 3_600_000) });
    expect(await db.requestLog.count({ where: { clientId: { in: scope.clients } } })).toBe(0);
    const hourly = await db.requestLogHourly.findMany({ where: { clientId, problem: "token-expired" } });
    expect(hourly.reduce((sum, row) => sum + row.requests, 0)).toBe(1);
    const after = await usageReport(db, scope, "7d");
    const sorted = (rows: typeof before.byProblem) => [...rows].sort((a, b) => `${a.problem}`.localeCompare(`${b.problem}`));
    expect(sorted(after.byProblem)).toEqual(sorted(before.byProblem));
    expect(after.totals.errors).toBe(before.totals.errors);
  });
});
