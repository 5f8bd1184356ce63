// The portal's side of plans (issue 51, part 3): the API page lists an API's plans with Subscribe,
// a developer subscribes their application, Settings → Usage and the console show the quota's use.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccessToken } from "../../lib/access-tokens/access-tokens";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { ensureApplication } from "../../lib/credentials/credentials";
import type { Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { openDb, registerProxyApi } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

let server: TestServer;
let db: Db;
let developer: PortalClient;
let applicationId: string;
let othersApplicationId: string;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  await registerProxyApi(db, { slug: "orders", upstream: "http://127.0.0.1:9", scopes: ["orders:read"] });
  const api = await db.api.findUniqueOrThrow({ where: { slug: "orders" } });
  const plans = [
    {
      id: newId("plan"),
      slug: "free",
      name: "Free",
      description: "For trying the API",
      rateLimitBurst: 10,
      rateLimitPerSecond: 5,
      quotaRequests: 1000,
      quotaPeriod: "month",
      approval: "auto",
    },
    {
      id: newId("plan"),
      slug: "pro",
      name: "Pro",
      rateLimitBurst: 200,
      rateLimitPerSecond: 100,
      quotaRequests: 1000000,
      quotaPeriod: "month",
      approval: "manual",
    },
  ] as const;
  for (const [position, plan] of plans.entries()) await db.plan.create({ data: { ...plan, position, apis: { create: { apiId: api.id, position } } } });
  const owner = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
  applicationId = (await db.application.findFirstOrThrow({ where: { team: { members: { some: { userId: owner.id, role: "owner" } } } } })).id;
  othersApplicationId = (await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: "Another team's" })).id;
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe("plans in the portal", () => {
  it("lists the API's plans with their limits and Subscribe, or a sign-in link", async () => {
    const anonymous = await (await fetch(`${server.url}/apis/orders?env=sso-qa`)).text();
    expect(anonymous).toContain('id="overview-plans"');
    expect(anonymous).toContain("Sign in to subscribe");
    const html = await (await developer.get("/apis/orders?env=sso-qa")).text();
    expect(html).toContain("1,000 requests per month (UTC)");
    expect(html).toContain("By an administrator");
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Subscribe<\/button>/);
  });

  it("subscribes at once to an auto plan, queues a manual one, and refuses what it may not", async () => {
    const free = await developer.post("/api/portal/subscriptions", { application: applicationId, environment: "sso-qa", api: "orders", plan: "free" });
    expect(free.status).toBe(201);
    expect(await free.json()).toMatchObject({ status: "active", plan: "free" });
    const pro = await developer.post("/api/portal/subscriptions", { application: applicationId, environment: "sso-qa", api: "orders", plan: "pro" });
    expect(pro.status).toBe(202);
    expect(await pro.json()).toMatchObject({ status: "pending", requestId: expect.stringMatching(/^req_/) });
    const gold = await developer.post("/api/portal/subscriptions", { application: applicationId, environment: "sso-qa", api: "orders", plan: "gold" });
    expect(gold.status).toBe(422);
    expect(gold.headers.get("content-type")).toContain("application/problem+json");
    expect(await gold.json()).toMatchObject({ type: `${server.url}/problems/plan-not-offered`, requestId: expect.any(String) });
    const theirs = await developer.post("/api/portal/subscriptions", { application: othersApplicationId, environment: "sso-qa", api: "orders", plan: "free" });
    expect(theirs.status).toBe(404);
  });

  it("shows used and remaining quota per subscription in Settings → Usage and per plan in the console", async () => {
    const usage = await (await developer.get("/settings/usage")).text();
    expect(usage).toContain("Subscriptions and quotas");
    expect(usage).toContain("free (pro requested)");
    expect(usage).toContain("1,000 of 1,000 per month");
    const admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
    const console = await (await admin.get("/admin/usage")).text();
    expect(console).toContain("Quotas by plan");
    expect(console).toMatch(/Free \(free\): 1 subscription\(s\)/);
  });

  it("lists plans and subscriptions and subscribes through /api/v1", async () => {
    const owner = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
    const { token } = await createAccessToken({
      db,
      actor: CLI_ACTOR,
      owner,
      input: { name: "plans", scopes: ["credentials:read", "credentials:write"], expiresInDays: 1 },
    });
    const v1 = (path: string, body?: unknown) =>
      fetch(`${server.url}/api/v1${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const plans = (await (await v1("/plans?api=orders")).json()) as { plans: { slug: string; quota: unknown; apis: string[] }[] };
    expect(plans.plans.map((plan) => [plan.slug, plan.quota, plan.apis])).toEqual([
      ["free", { requests: 1000, period: "month" }, ["orders"]],
      ["pro", { requests: 1000000, period: "month" }, ["orders"]],
    ]);
    const listed = (await (await v1("/subscriptions")).json()) as { subscriptions: { plan: string; pending: unknown; usage: { remaining: number } }[] };
    expect(listed.subscriptions).toEqual([
      expect.objectContaining({ plan: "free", pending: { requestId: expect.any(String), plan: "pro" }, usage: expect.objectContaining({ remaining: 1000 }) }),
    ]);
    const again = await v1("/subscriptions", { application: applicationId, environment: "sso-qa", api: "orders", plan: "pro" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ type: `${server.url}/problems/subscription-pending` });
    const unknownField = await v1("/subscriptions", { application: applicationId, environment: "sso-qa", api: "orders", plan: "free", extra: 1 });
    expect(unknownField.status).toBe(400);
  });
});
