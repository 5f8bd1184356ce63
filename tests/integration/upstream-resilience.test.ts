import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import type { UpstreamPolicyInput } from "../../lib/upstreams/upstream-policy";
import { freePort, startServer, type TestServer } from "../support/server";
import { eventually, openDb, registerProxyApi } from "./gateway-support";

const METRICS_TOKEN = "metrics-token-for-the-resilience-tests";
const UPSTREAM_SCRIPT = join(import.meta.dirname, "../support/counting-upstream.mjs");

type Target = { name: string; port: number; url: string; process?: ChildProcess };

let server: TestServer;
let db: Db;
const targets: Target[] = [];

async function startTarget(target: Target): Promise<void> {
  const child = spawn(process.execPath, [UPSTREAM_SCRIPT, String(target.port), target.name], { stdio: ["ignore", "pipe", "inherit"] });
  await once(child.stdout!, "data");
  target.process = child;
}

async function newTarget(name: string): Promise<Target> {
  const port = await freePort();
  const target: Target = { name, port, url: `http://127.0.0.1:${port}` };
  await startTarget(target);
  targets.push(target);
  return target;
}

async function kill(target: Target): Promise<void> {
  const child = target.process!;
  child.kill("SIGKILL");
  if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
}

async function counts(target: Target): Promise<Record<string, number>> {
  return (await fetch(`${target.url}/__counts`)).json();
}

async function setMode(target: Target, mode: "ok" | "fail" | "slow"): Promise<void> {
  await fetch(`${target.url}/__mode?set=${mode}`, { method: "POST" });
}

/** A public proxied API, so that calls need no token: what is under test is the way to the targets. */
async function registerApi(slug: string, upstream: UpstreamPolicyInput): Promise<string> {
  await registerProxyApi(db, { slug, upstream, isPublic: true });
  const base = `${server.url}/gw/sso-qa/${slug}`;
  // The gateway reads registrations within 5 s; this call reaches a target, as GET /ready.
  await eventually(async () => (await fetch(`${base}/ready`)).status !== 404);
  return base;
}

async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

async function metricsText(): Promise<string> {
  return (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
}

function gauge(text: string, name: string, api: string, target: Target): string | undefined {
  return new RegExp(`^${name}\\{env="sso-qa",api="${api}",target="${target.url.replaceAll(".", "\\.")}"\\} (\\S+)$`, "m").exec(text)?.[1];
}

beforeAll(async () => {
  server = await startServer({ env: { METRICS_TOKEN } });
  db = openDb(server);
});

afterAll(async () => {
  for (const target of targets) target.process?.kill("SIGKILL");
  await db?.$disconnect();
  await server?.stop();
});

describe("several targets", () => {
  it("spreads calls by weight and sends none to a target of weight 0", async () => {
    const [a, b, drained] = await Promise.all([newTarget("a"), newTarget("b"), newTarget("drained")]);
    const base = await registerApi("weighted", {
      targets: [
        { url: a.url, weight: 3 },
        { url: b.url, weight: 1 },
        { url: drained.url, weight: 0 },
      ],
    });
    const before = { a: (await counts(a))["GET /spread"] ?? 0, b: (await counts(b))["GET /spread"] ?? 0 };
    for (let i = 0; i < 8; i++) expect((await call(`${base}/spread`)).status).toBe(200);
    expect((await counts(a))["GET /spread"]! - before.a).toBe(6);
    expect((await counts(b))["GET /spread"]! - before.b).toBe(2);
    expect(await counts(drained)).toEqual({});
  });
});

describe("a target that dies and comes back", () => {
  it("retries GETs on the other target, ejects the dead one, and takes it back once its health check passes", async () => {
    const [a, b] = await Promise.all([newTarget("a"), newTarget("b")]);
    const base = await registerApi("failover", {
      targets: [{ url: a.url }, { url: b.url }],
      healthCheck: { path: "/health", intervalSeconds: 1, unhealthyAfter: 2, healthyAfter: 2 },
      passive: { unhealthyAfter: 2, cooldownSeconds: 2 },
      retries: 1,
    });
    await kill(b);
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 10; i++) statuses.push((await call(`${base}/orders`)).status);
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await counts(a))["GET /orders"]).toBe(40);
    expect(await eventually(async () => gauge(await metricsText(), "gatehouse_upstream_target_healthy", "failover", b) === "0")).toBe(true);
    expect(server.output()).toMatch(/upstream target (ejected|health check: unhealthy)/);

    await startTarget(b);
    // Two passing checks a second apart, and the passive ejection's 2 s over.
    expect(await eventually(async () => (await call(`${base}/back`)).status === 200 && (await counts(b))["GET /back"] !== undefined)).toBe(true);
    expect(gauge(await metricsText(), "gatehouse_upstream_target_healthy", "failover", b)).toBe("1");
  });

  it("answers 503 upstream-unavailable with Retry-After when no target can take a call", async () => {
    const a = await newTarget("lonely");
    // Only the health check takes the target out, so that Retry-After is its time to bring it
    // back, not a passive ejection's cooldown that the failing calls below could start first.
    const base = await registerApi("all-down", {
      targets: [{ url: a.url }],
      healthCheck: { path: "/health", intervalSeconds: 1, unhealthyAfter: 1, healthyAfter: 3 },
      passive: { unhealthyAfter: 100, cooldownSeconds: 10 },
    });
    await setMode(a, "fail");
    expect(await eventually(async () => (await call(`${base}/x`)).status === 503)).toBe(true);
    const response = await call(`${base}/x`);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(response.headers.get("retry-after")).toBe("3");
    const body = JSON.parse(response.text);
    expect(body.type).toBe(`${server.url}/problems/upstream-unavailable`);
    expect(body.requestId).toBe(response.headers.get("x-request-id"));
  });
});

describe("retries", () => {
  it("never retries a POST, and retries a GET whose connection was reset before any answer", async () => {
    // Both targets reset every call to /reset, so whatever a call reaches fails before any answer.
    const both = await Promise.all([newTarget("one"), newTarget("two")]);
    const base = await registerApi("retries", { targets: both.map((target) => ({ url: target.url })), retries: 1 });
    const received = async (key: string) => (await Promise.all(both.map(counts))).map((seen) => seen[key] ?? 0);

    const post = await call(`${base}/reset`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(post.status).toBe(502);
    expect((await received("POST /reset")).sort()).toEqual([0, 1]);

    const get = await call(`${base}/reset`);
    expect(get.status).toBe(502);
    expect(await received("GET /reset")).toEqual([1, 1]);
  });

  it("with retries 0, sends an idempotent request no target answered only once", async () => {
    const [first, second] = await Promise.all([newTarget("first"), newTarget("second")]);
    const base = await registerApi("no-retries", { targets: [{ url: first.url }, { url: second.url }], retries: 0 });
    expect((await call(`${base}/reset`, { method: "PUT", body: "x" })).status).toBe(502);
    const received = (await Promise.all([first, second].map(counts))).map((seen) => seen["PUT /reset"] ?? 0);
    expect(received.sort()).toEqual([0, 1]);
  });
});

describe("the circuit breaker", () => {
  it("opens on a failure ratio, answers 503 while open, and lets one probe through when half-open", async () => {
    const a = await newTarget("breaker");
    const base = await registerApi("breaker", {
      targets: [{ url: a.url }],
      passive: { unhealthyAfter: 100, cooldownSeconds: 1 },
      circuitBreaker: { failureRatio: 0.5, windowSeconds: 30, minimumRequests: 4, openSeconds: 1 },
    });
    await setMode(a, "fail");
    const statuses: number[] = [];
    while (statuses.at(-1) !== 503 && statuses.length < 10) statuses.push((await call(`${base}/flaky`)).status);
    expect(statuses.slice(0, -1).every((status) => status === 500)).toBe(true);
    // The registration's GET /ready succeeded; with three failed calls, four in the window at 75 % failed open the circuit.
    const seen = await counts(a);
    expect([seen["GET /ready"], seen["GET /flaky"]]).toEqual([1, 3]);
    const open = await call(`${base}/flaky`);
    expect(open.status).toBe(503);
    expect(open.headers.get("retry-after")).toBe("1");
    expect(gauge(await metricsText(), "gatehouse_upstream_target_circuit_state", "breaker", a)).toBe("2");

    await setMode(a, "slow");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Half-open: the first call is the probe; one sent while it is out finds no target.
    const probe = call(`${base}/flaky`);
    expect(await eventually(async () => (await counts(a))["GET /flaky"] === 4)).toBe(true);
    expect((await call(`${base}/flaky`)).status).toBe(503);
    expect((await probe).status).toBe(200);
    await setMode(a, "ok");
    expect((await call(`${base}/flaky`)).status).toBe(200);
    expect(gauge(await metricsText(), "gatehouse_upstream_target_circuit_state", "breaker", a)).toBe("0");
    expect(server.output()).toContain("upstream target circuit closed -> open");
    expect(server.output()).toContain("upstream target circuit open -> half-open");
    expect(server.output()).toContain("upstream target circuit half-open -> closed");
  });
});

describe("per-API limits", () => {
  it("answers 504 after the API's own response timeout", async () => {
    const a = await newTarget("slow");
    const base = await registerApi("impatient", { targets: [{ url: a.url }], timeouts: { responseMs: 300 } });
    await setMode(a, "slow");
    const response = await call(`${base}/wait`);
    expect(response.status).toBe(504);
    expect(JSON.parse(response.text).detail).toContain("300 ms");
  });

  it("answers 413 payload-too-large for a body over the limit, declared (sent nowhere) or streamed", async () => {
    const a = await newTarget("small-bodies");
    const base = await registerApi("small-bodies", { targets: [{ url: a.url }], maxRequestBodyBytes: 1_000 });
    const declared = await call(`${base}/upload`, { method: "POST", body: "x".repeat(2_000) });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.text).type).toBe(`${server.url}/problems/payload-too-large`);
    expect((await counts(a))["POST /upload"]).toBeUndefined();

    const streamed = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/upload`, { method: "POST", headers: { "transfer-encoding": "chunked" } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.write("y".repeat(600));
      req.end("y".repeat(600));
    });
    expect(streamed).toBe(413);
    expect((await call(`${base}/upload`, { method: "POST", body: "small" })).status).toBe(200);
  });
});
