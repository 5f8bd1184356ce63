// Plans, subscriptions and quotas (issue 51, part 3) through the configuration file, the admin CLI,
// the subscription service and two gateway-only instances sharing Redis on one database.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// This process reads the quota's use as the portal does: from the servers' Redis, under their prefix.
const prefix = vi.hoisted(() => {
  const chosen = `gatehouse-test-plans-${process.pid}-${Date.now()}:`;
  process.env.REDIS_URL = "redis://127.0.0.1:6379";
  process.env.REDIS_KEY_PREFIX = chosen;
  return chosen;
});

import { approveAccessRequest } from "../../lib/access-requests/decide-access-request";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { ensureApplication } from "../../lib/credentials/credentials";
import { createTestDatabase } from "../../lib/database/test-databases";
import type { Db } from "../../lib/db";
import { listSubscriptions } from "../../lib/subscriptions/list-subscriptions";
import { recordQuotaThresholds } from "../../lib/subscriptions/quota-thresholds";
import { subscribe } from "../../lib/subscriptions/subscribe";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import { runAdminProcess } from "../support/admin-cli";
import { Redis } from "ioredis";
import { TEST_REDIS_URL } from "../support/redis";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb } from "./gateway-support";

const ENV = "sso-qa";
const cleanups: (() => Promise<unknown>)[] = [];
let first: TestServer;
let second: TestServer;
let db: Db;
let upstream: Server;
let redisKeys: (pattern: string) => Promise<string[]>;
let serverOptions: Parameters<typeof startServer>[0];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const CONFIG = (upstreamUrl: string) => `
environments:
  - slug: ${ENV}
    name: SSO QA
    credentialType: GLOBAL_SSO
plans:
  - slug: free
    name: Free
    description: For trying the API
    rateLimit: { burst: 10, perSecond: 5 }
    quota: { requests: 1000, period: month }
    approval: auto
  - slug: pro
    name: Pro
    rateLimit: { burst: 200, perSecond: 100 }
    quota: { requests: 1000000, period: month }
    approval: manual
  - slug: tight
    name: Tight
    rateLimit: { burst: 200, perSecond: 100 }
    quota: { requests: 25, period: day }
apis:
  - slug: orders
    name: Orders
    summary: Orders of the shop
    version: 1.0.0
    visibility: protected
    scopes: [orders:read]
    plans: [free, pro, tight]
    environments:
      ${ENV}: { targets: [{ url: "${upstreamUrl}" }] }
`;

async function cli(...args: string[]) {
  return runAdminProcess(first.databaseUrl, ...args);
}

const call = (server: TestServer, token: string) => fetch(`${server.url}/gw/${ENV}/orders/items`, { headers: { authorization: `Bearer ${token}` } });

/** Seconds from now to the next UTC midnight: when a daily quota starts again. */
const secondsToMidnight = () => {
  const now = new Date();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
};

beforeAll(async () => {
  upstream = createServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
  const redis = new Redis(TEST_REDIS_URL);
  cleanups.push(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });
  redisKeys = (pattern) => redis.keys(`${prefix}${pattern}`);
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  // Two instances of one deployment behind one public URL: one issuer.
  const port = await freePort();
  const env = { ...GATEWAY_ENV, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix, PUBLIC_URL: `http://127.0.0.1:${port}` };
  serverOptions = { database, env, nodeArgs: GATEWAY_NODE_ARGS };
  first = await startServer({ ...serverOptions, port });
  cleanups.push(() => first.stop());
  second = await startServer(serverOptions);
  cleanups.push(() => second.stop());
  db = openDb(first);
  cleanups.push(() => db.$disconnect());
  const folder = mkdtempSync(join(tmpdir(), "gatehouse-plans-"));
  writeFileSync(join(folder, "gatehouse.yaml"), CONFIG(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`));
  const applied = await cli("config", "apply", "-f", join(folder, "gatehouse.yaml"));
  expect(applied.stderr).toBe("");
  expect(applied.code).toBe(0);
}, 180_000);

describe("plans in the configuration file", () => {
  it("applies as written, exports back and lists through plan list", async () => {
    const listed = JSON.parse((await cli("plan", "list", "--json")).stdout) as { plans: { slug: string; approval: string; apis: string }[] };
    expect(listed.plans.map((plan) => [plan.slug, plan.approval, plan.apis])).toEqual([
      ["free", "auto", "orders"],
      ["pro", "manual", "orders"],
      ["tight", "auto", "orders"],
    ]);
    const exported = await cli("config", "export");
    expect(exported.stdout).toContain("plans:\n  - slug: free\n");
    expect(exported.stdout).toMatch(/plans:\n {6}- free\n {6}- pro\n {6}- tight\n/);
  });

  it("refuses an API's plan that does not exist", async () => {
    const folder = mkdtempSync(join(tmpdir(), "gatehouse-plans-"));
    writeFileSync(join(folder, "bad.yaml"), CONFIG("http://127.0.0.1:9").replace("plans: [free, pro, tight]", "plans: [free, gold]"));
    const refused = await cli("config", "diff", "-f", join(folder, "bad.yaml"));
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('there is no plan "gold"');
  });
});

describe("subscriptions and quotas at the gateway", { timeout: 120_000 }, () => {
  it("refuses a plan the API does not offer, and a caller without a subscription", async () => {
    const client = await newCredential(db, ENV, { app: "Unsubscribed" });
    const refused = await cli("subscription", "create", "--app", "Unsubscribed", "--env", ENV, "--api", "orders", "--plan", "gold", "--json");
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('offers no plan \\"gold\\"');
    const token = await accessToken(first, ENV, client);
    const answer = await call(first, token);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ type: `${first.url}/problems/subscription-required`, api: "orders" });
  });

  it("admits exactly the quota across two instances, then 429 quota-exceeded until the next period, after a restart too", async () => {
    const client = await newCredential(db, ENV, { app: "Racer" });
    const created = await cli("subscription", "create", "--app", "Racer", "--env", ENV, "--api", "orders", "--plan", "tight", "--json");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ status: "active", plan: "tight", subscriptionId: expect.stringMatching(/^sub_/) });
    const token = await accessToken(first, ENV, client);
    expect(await eventually(async () => (await call(second, token)).status === 200)).toBe(true);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, index) => call(index % 2 === 0 ? first : second, token)));
    const statuses = answers.map((answer) => answer.status);
    // One call above was admitted while the subscription became visible.
    expect(statuses.filter((status) => status === 200)).toHaveLength(24);
    expect(statuses.filter((status) => status === 429)).toHaveLength(36);
    const admitted = answers.find((answer) => answer.status === 200)!;
    expect(admitted.headers.get("ratelimit-policy")).toBe('"client";q=200;w=2, "quota";q=25;w=86400');
    const refused = answers.find((answer) => answer.status === 429)!;
    const problem = (await refused.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ type: `${first.url}/problems/quota-exceeded`, status: 429, plan: "tight", quota: 25, period: "day" });
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(Math.abs(Number(refused.headers.get("retry-after")) - secondsToMidnight())).toBeLessThan(5);
    expect(refused.headers.get("ratelimit")).toMatch(/"quota";r=0;t=\d+$/);
    expect(await redisKeys("quota:*")).toHaveLength(1);

    await second.stop();
    second = await startServer(serverOptions);
    cleanups.push(() => second.stop());
    expect((await call(second, token)).status).toBe(429);

    const [listed] = await listSubscriptions({ db, viewer: "operator", plan: "tight" });
    expect(listed).toMatchObject({ application: "Racer", plan: "tight", usage: { used: 25, remaining: 0 } });

    // quota.threshold at 80 % and 100 %, once each per period.
    expect(await recordQuotaThresholds(db)).toBe(2);
    expect(await recordQuotaThresholds(db)).toBe(0);
    const events = await db.outboxEvent.findMany({ where: { type: "quota.threshold" }, orderBy: { occurredAt: "asc" } });
    expect(events.map((event) => event.payload)).toEqual([
      expect.objectContaining({ subscriptionId: listed!.id, threshold: 80, quota: 25, clientId: client.clientId }),
      expect.objectContaining({ subscriptionId: listed!.id, threshold: 100, used: 25 }),
    ]);
  });

  it("keeps the old plan while a change waits for approval, then applies the new one", async () => {
    const developer = await db.user.findFirstOrThrow({ where: { role: "DEVELOPER" } });
    const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: developer.id, name: "Upgrader" });
    const user = { id: developer.id, email: developer.email, name: developer.name, role: developer.role };
    const started = await subscribe({ db, by: { user }, subscription: { application: "Upgrader", environment: ENV, api: "orders", plan: "free" } });
    expect(started).toMatchObject({ status: "active", plan: "free" });
    const credential = await db.credential.findFirstOrThrow({ where: { applicationId: application.id } });
    expect(await db.grant.count({ where: { credentialId: credential.id } })).toBe(1);

    const asked = await subscribe({ db, by: { user }, subscription: { application: application.id, environment: ENV, api: "orders", plan: "pro" } });
    expect(asked).toMatchObject({ status: "pending", subscriptionId: started.subscriptionId, requestId: expect.stringMatching(/^req_/) });
    const again = subscribe({ db, by: { user }, subscription: { application: "Upgrader", environment: ENV, api: "orders", plan: "pro" } });
    await expect(again).rejects.toMatchObject({ code: "subscription-pending" });
    expect(await db.subscription.findUniqueOrThrow({ where: { id: started.subscriptionId! }, include: { plan: true } })).toMatchObject({
      plan: { slug: "free" },
    });

    const admin = await db.user.findFirstOrThrow({ where: { role: "ADMIN" } });
    await approveAccessRequest({ db, admin: { id: admin.id, email: admin.email, name: admin.name, role: admin.role }, id: asked.requestId! });
    expect(await db.subscription.findUniqueOrThrow({ where: { id: started.subscriptionId! }, include: { plan: true } })).toMatchObject({
      plan: { slug: "pro" },
    });
    const [mine] = await listSubscriptions({ db, viewer: user });
    expect(mine).toMatchObject({ application: "Upgrader", plan: "pro", pending: null, usage: { used: 0, remaining: 1000000 } });
  });

  it("refuses to subscribe another team's application, and a plan not offered, as problems", async () => {
    const developer = await db.user.findFirstOrThrow({ where: { role: "DEVELOPER" } });
    await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: "Someone Else's" });
    const user = { id: developer.id, email: developer.email, name: developer.name, role: developer.role };
    const theirs = subscribe({ db, by: { user }, subscription: { application: "Someone Else's", environment: ENV, api: "orders", plan: "free" } });
    await expect(theirs).rejects.toMatchObject({ code: "not-found" });
    const other = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: developer.id, name: "Mine Too" });
    const notOffered = subscribe({ db, by: { user }, subscription: { application: other.id, environment: ENV, api: "notifications", plan: "free" } });
    await expect(notOffered).rejects.toMatchObject({ code: "plan-not-offered" });
    const huge = subscribe({ db, by: { user }, subscription: { application: "x".repeat(10_000), environment: ENV, api: "orders", plan: "free" } });
    await expect(huge).rejects.toMatchObject({ code: "validation-failed" });
  });
});
