import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { runAdmin } from "../support/admin-cli";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

let server: TestServer;
let db: Db;
let admin: PortalClient;
let developer: PortalClient;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

function cli(...args: string[]) {
  return runAdmin(server.databaseUrl, ...args);
}

/** Polls the gateway until its RateLimit-Policy is `expected`; every instance applies a change within 5 s. */
function policyBecomes(envSlug: string, token: string, expected: string) {
  return eventually(async () => {
    const response = await fetch(`${server.url}/gw/${envSlug}/notifications/v1/notifications?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    return response.headers.get("ratelimit-policy") === expected;
  }, 8_000);
}

describe("rate-limit policies from the command line", () => {
  // Three CLI runs and the gateway's polls.
  it("sets an environment's default and a credential's override, audited, and the gateway applies them", { timeout: 120_000 }, async () => {
    const client = await newCredential(db, "sso-prod");
    const token = await accessToken(server, "sso-prod", client);

    const environment = await cli("environment", "rate-limit", "sso-prod", "--burst", "3", "--per-second", "1", "--json");
    expect(environment.code).toBe(0);
    expect(JSON.parse(environment.stdout)).toEqual({ database: expect.any(String), env: "sso-prod", burst: 3, perSecond: 1 });
    expect(await db.environment.findUniqueOrThrow({ where: { slug: "sso-prod" } })).toMatchObject({ rateLimitBurst: 3, rateLimitPerSecond: 1 });
    expect(await policyBecomes("sso-prod", token, '"client";q=3;w=3')).toBe(true);

    const override = await cli("credential", "rate-limit", client.clientId, "--burst", "7", "--per-second", "2", "--json");
    expect(override.code).toBe(0);
    expect(JSON.parse(override.stdout)).toEqual({
      database: expect.any(String),
      clientId: client.clientId,
      env: "sso-prod",
      override: { burst: 7, perSecond: 2 },
      effective: { burst: 7, perSecond: 2, source: "credential" },
    });
    expect(await policyBecomes("sso-prod", token, '"client";q=7;w=4')).toBe(true);

    const cleared = await cli("credential", "rate-limit", client.clientId, "--clear", "--json");
    expect(cleared.code).toBe(0);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ override: null, effective: { burst: 3, perSecond: 1, source: "environment" } });
    expect(await db.credential.findUniqueOrThrow({ where: { clientId: client.clientId } })).toMatchObject({ rateLimitBurst: null, rateLimitPerSecond: null });
    expect(await policyBecomes("sso-prod", token, '"client";q=3;w=3')).toBe(true);

    const audit = await db.auditEvent.findMany({
      where: { action: { startsWith: "credential.rate-limit" }, targetId: client.clientId },
      orderBy: { at: "asc" },
    });
    expect(audit.map((event) => [event.action, event.actorLabel, event.details])).toEqual([
      ["credential.rate-limit", "cli", { env: "sso-prod", from: null, to: { burst: 7, perSecond: 2 } }],
      ["credential.rate-limit.clear", "cli", { env: "sso-prod", from: { burst: 7, perSecond: 2 }, to: null }],
    ]);
    const envAudit = await db.auditEvent.findFirstOrThrow({ where: { action: "environment.rate-limit", targetId: "sso-prod" } });
    expect(envAudit.details).toEqual({ from: { burst: 100, perSecond: 50 }, to: { burst: 3, perSecond: 1 } });
  });

  it.each([
    [["environment", "rate-limit", "sso-prod", "--burst", "0", "--per-second", "1"], "--burst"],
    [["environment", "rate-limit", "nowhere", "--burst", "1", "--per-second", "1"], "nowhere"],
    [["environment", "rate-limit", "sso-prod", "--burst", "5"], "--per-second"],
    [["credential", "rate-limit", "gci_unknown", "--burst", "1", "--per-second", "1"], "gci_unknown"],
    [["credential", "rate-limit", "gci_unknown", "--clear", "--burst", "1"], "usage"],
  ])("refuses %j with a one-line reason", async (args, reason) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(reason);
  });
});

describe("rate-limit policies in the portal", () => {
  it("lets admins set and clear a credential's override, which its developer sees in Settings", async () => {
    const credential = await db.credential.findFirstOrThrow({
      where: { application: { owner: { email: "developer@example.com" } }, environment: { slug: "sso-qa" } },
    });
    const route = `/api/portal/admin/credentials/${credential.clientId}/rate-limit`;
    expect((await developer.post(route, { burst: "20", perSecond: "10" })).status).toBe(403);

    const invalid = await admin.post(route, { burst: "many", perSecond: "0" });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()).errors as { field: string }[]).map((error) => error.field)).toEqual(["burst", "perSecond"]);

    expect((await admin.post(route, { burst: "20", perSecond: "10" })).status).toBe(200);
    const adminPage = await (await admin.get(`/admin/credentials/${credential.clientId}`)).text();
    expect(adminPage).toContain("10 requests per second, bursts of 20 (set for this credential)");
    const settings = await (await developer.get("/settings/credentials")).text();
    expect(settings).toContain("10 requests per second, bursts of 20 (set for this credential)");

    expect((await admin.post(route, { clear: true })).status).toBe(200);
    expect(await (await developer.get("/settings/credentials")).text()).not.toContain("set for this credential");
    expect(
      await db.auditEvent.count({ where: { targetId: credential.clientId, action: { startsWith: "credential.rate-limit" }, actorLabel: "admin@example.com" } }),
    ).toBe(2);
  });

  it("lets admins set an environment's default on the environments page", async () => {
    expect((await developer.post("/api/portal/admin/environments/platform-prod/rate-limit", { burst: "8", perSecond: "4" })).status).toBe(403);
    const saved = await admin.post("/api/portal/admin/environments/platform-prod/rate-limit", { burst: "8", perSecond: "4" });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ env: "platform-prod", burst: 8, perSecond: 4 });
    expect((await admin.post("/api/portal/admin/environments/nowhere/rate-limit", { burst: "8", perSecond: "4" })).status).toBe(404);
    const page = await (await admin.get("/admin/environments")).text();
    expect(page).toContain("Save rate limit of Platform Production");
  });
});
