import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { LATENCY_BUCKETS } from "../../lib/metrics/gateway-metrics";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, basic, newCredential, openDb, tokenRequest } from "./gateway-support";

const METRICS_TOKEN = "metrics-token-for-the-tests-0123";

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The Prometheus text exposition format, as a scraper reads it. */
function parseExposition(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1]!, label[2]!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

function value(samples: Sample[], name: string, labels: Record<string, string>): number | undefined {
  return samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted))?.value;
}

function scrape(url: string, token?: string) {
  return fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
}

describe("GET /metrics", () => {
  let server: TestServer;
  let db: Db;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    server = await startServer({ env: { METRICS_TOKEN } });
    cleanups.push(() => server.stop());
    db = openDb(server);
    cleanups.push(() => db.$disconnect());
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("counts requests, latency, tokens, rate-limit refusals, upstream errors and token-cache hits with bounded labels", async () => {
    // Before the gateway first reads its directory, so the limit applies at once.
    await db.environment.update({ where: { slug: "platform-prod" }, data: { rateLimitBurst: 1, rateLimitPerSecond: 1 } });
    const qa = await db.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } });
    await db.api.create({
      data: {
        id: newId("api"),
        slug: "gone",
        name: "Gone",
        summary: "An upstream nobody listens on",
        description: "",
        version: "1.0.0",
        tags: [],
        kind: "PROXY",
        isPublic: true,
        changelog: [],
        environments: { create: [{ environmentId: qa.id, upstream: { targets: [{ url: `http://127.0.0.1:${await freePort()}`, weight: 1 }] } }] },
      },
    });
    const client = await newCredential(db, "sso-qa");
    const [notificationId] = await createNotifications({ db, environmentId: qa.id, recipients: { clientIds: [client.clientId] }, title: "Counted" });
    const token = await accessToken(server, "sso-qa", client);
    const refused = await tokenRequest(server, "sso-qa", {
      headers: { authorization: basic(client.clientId, "gsk_wrong") },
      body: "grant_type=client_credentials",
    });
    expect(refused.status).toBe(401);
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${server.url}/gw/sso-qa/notifications/v1/notifications`, { headers: auth })).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${server.url}/gw/sso-qa/notifications/v1/notifications/${notificationId}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${server.url}/gw/sso-qa/notifications/v1/notifications`)).status).toBe(401);
    expect((await fetch(`${server.url}/gw/sso-qa/gone/anything`)).status).toBe(502);
    expect((await fetch(`${server.url}/gw/nowhere/x/y`)).status).toBe(404);
    const prod = await newCredential(db, "platform-prod");
    const prodToken = await accessToken(server, "platform-prod", prod);
    const prodCalls = [];
    for (let i = 0; i < 2; i++) {
      prodCalls.push(
        (await fetch(`${server.url}/gw/platform-prod/notifications/v1/notifications`, { headers: { authorization: `Bearer ${prodToken}` } })).status,
      );
    }
    expect(prodCalls).toEqual([200, 429]);

    const response = await scrape(server.url, METRICS_TOKEN);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const samples = parseExposition(text);

    const requests = "gatehouse_gateway_requests_total";
    expect(value(samples, requests, { env: "sso-qa", api: "notifications", route: "/v1/notifications", status_class: "2xx" })).toBe(1);
    expect(value(samples, requests, { env: "sso-qa", api: "notifications", route: "/v1/notifications/{id}", status_class: "2xx" })).toBe(2);
    expect(value(samples, requests, { env: "sso-qa", api: "notifications", route: "", status_class: "4xx" })).toBe(1);
    expect(value(samples, requests, { env: "sso-qa", api: "global-sso-token", route: "/oauth2/token", status_class: "2xx" })).toBe(1);
    expect(value(samples, requests, { env: "sso-qa", api: "global-sso-token", route: "/oauth2/token", status_class: "4xx" })).toBe(1);
    expect(value(samples, requests, { env: "", api: "", route: "", status_class: "4xx" })).toBe(1);

    const latency = "gatehouse_gateway_request_duration_seconds";
    const byId = { env: "sso-qa", api: "notifications", route: "/v1/notifications/{id}" };
    const buckets = samples.filter((sample) => sample.name === `${latency}_bucket` && sample.labels.route === byId.route);
    expect(buckets.map((bucket) => bucket.labels.le)).toEqual([...LATENCY_BUCKETS.map(String), "+Inf"]);
    expect(buckets.at(-1)!.value).toBe(2);
    expect(value(samples, `${latency}_count`, byId)).toBe(2);
    expect(value(samples, `${latency}_sum`, byId)).toBeGreaterThan(0);

    expect(value(samples, "gatehouse_tokens_issued_total", { env: "sso-qa" })).toBe(1);
    expect(value(samples, "gatehouse_tokens_refused_total", { env: "sso-qa", reason: "invalid_client" })).toBe(1);
    expect(value(samples, "gatehouse_rate_limit_refusals_total", { env: "platform-prod", api: "notifications" })).toBe(1);
    expect(value(samples, "gatehouse_upstream_failures_total", { env: "sso-qa", api: "gone", kind: "error" })).toBe(1);
    expect(value(samples, "gatehouse_cache_lookups_total", { cache: "verified-tokens", result: "hit" })).toBeGreaterThanOrEqual(2);
    expect(value(samples, "process_cpu_user_seconds_total", {})).toBeGreaterThan(0);
    expect(value(samples, "nodejs_heap_size_used_bytes", {})).toBeGreaterThan(0);

    // Bounded labels: no raw path, id or client id anywhere.
    for (const secretish of [client.clientId, prod.clientId, notificationId!, "nowhere", "anything"]) expect(text).not.toContain(secretish);
  });

  it("answers 401 without the token and with a wrong one", async () => {
    for (const token of [undefined, "not-the-metrics-token"]) {
      const response = await scrape(server.url, token);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.json()).toMatchObject({ type: `${server.url}/problems/metrics-token-required`, status: 401 });
    }
  });
});

describe("GET /metrics when it is off or on its own port", () => {
  // Each starts a server of its own.
  const STARTS = 120_000;

  it("answers 404 when METRICS_TOKEN is unset", { timeout: STARTS }, async () => {
    const server = await startServer();
    try {
      const response = await scrape(server.url, METRICS_TOKEN);
      expect(response.status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it("serves METRICS_PORT on 127.0.0.1 and no longer on the public port", { timeout: STARTS }, async () => {
    const metricsPort = await freePort();
    const server = await startServer({ env: { METRICS_TOKEN, METRICS_PORT: String(metricsPort) } });
    try {
      expect((await scrape(server.url, METRICS_TOKEN)).status).toBe(404);
      const own = await scrape(`http://127.0.0.1:${metricsPort}`, METRICS_TOKEN);
      expect(own.status).toBe(200);
      expect(await own.text()).toContain("# TYPE gatehouse_gateway_requests_total counter");
      expect((await scrape(`http://127.0.0.1:${metricsPort}`)).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});
