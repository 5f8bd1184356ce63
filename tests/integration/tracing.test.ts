import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";
import { startServer, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb, registerProxyApi } from "./gateway-support";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN_ID = "00f067aa0ba902b7";
const CLIENT_TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ORDERS_DOCUMENT = JSON.stringify({ openapi: "3.1.0", info: { title: "Orders", version: "1.0.0" }, paths: { "/v1/orders/{id}": {} } });

/** A span as OTLP/HTTP's JSON encoding carries it (ids in hex), with its attributes as plain values. */
type ExportedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  attributes: Record<string, string | number | boolean>;
  service: string;
};

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpExport = {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: (Omit<ExportedSpan, "attributes" | "service"> & { attributes?: OtlpAttribute[] })[] }[];
  }[];
};

const SPAN_KIND = { internal: 1, server: 2, client: 3 };

function plain(attributes: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [key, value.stringValue ?? (value.intValue === undefined ? value.boolValue! : Number(value.intValue))]),
  );
}

/** A real OTLP/HTTP receiver: what the gateway's exporter sends to `/v1/traces`, decoded from JSON. */
function startCollector(): Promise<{ server: Server; spans: ExportedSpan[]; contentTypes: string[] }> {
  const spans: ExportedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      contentTypes.push(req.headers["content-type"] ?? "");
      const body = JSON.parse(Buffer.concat(chunks).toString()) as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(plain(resourceSpans.resource?.attributes)["service.name"]);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) spans.push({ ...span, attributes: plain(span.attributes), service });
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, spans, contentTypes })));
}

/** A real upstream that keeps the headers of every call. */
function startUpstream(): Promise<{ server: Server; seen: Map<string, IncomingHttpHeaders> }> {
  const seen = new Map<string, IncomingHttpHeaders>();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.set(req.url!, req.headers);
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, seen })));
}

type Gateway = { server: TestServer; database: TestDatabase; db: Db; token: string; base: string };

/** A server with an API proxied to `upstreamUrl`, and a token that may call it. */
async function startGateway(upstreamUrl: string, slug: string, env: Record<string, string> = {}): Promise<Gateway> {
  const database = await createTestDatabase();
  const server = await startServer({ database, env });
  const db = openDb(server);
  await registerProxyApi(db, { slug, upstream: upstreamUrl, openapiDocument: ORDERS_DOCUMENT });
  const token = await accessToken(server, "sso-qa", await newCredential(db, "sso-qa"));
  const base = `${server.url}/gw/sso-qa/${slug}`;
  // The gateway reads registrations within 5 s.
  await eventually(async () => (await fetch(`${base}/v1/orders/ready`, { headers: { authorization: `Bearer ${token}` } })).status === 200);
  return { server, database, db, token, base };
}

async function loggedTraceId(db: Db, requestId: string): Promise<string | null | undefined> {
  await eventually(async () => (await db.requestLog.count({ where: { requestId } })) === 1);
  return (await db.requestLog.findFirst({ where: { requestId } }))?.traceId;
}

let collector: Awaited<ReturnType<typeof startCollector>>;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let traced: Gateway;
let untraced: Gateway;
let tracedStopped = false;

beforeAll(async () => {
  [collector, upstream] = await Promise.all([startCollector(), startUpstream()]);
  const upstreamUrl = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  const endpoint = `http://127.0.0.1:${(collector.server.address() as AddressInfo).port}`;
  [traced, untraced] = await Promise.all([
    // The SDK's own variable: batches wait a minute, so that only the stop sends them.
    startGateway(upstreamUrl, "traced", { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "60000" }),
    startGateway(upstreamUrl, "untraced"),
  ]);
});

afterAll(async () => {
  for (const gateway of [traced, untraced]) {
    await gateway?.db.$disconnect();
    if (gateway !== traced || !tracedStopped) await gateway?.server.stop();
    await gateway?.database.drop();
  }
  for (const server of [collector?.server, upstream?.server]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

describe("with OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("continues the client's trace upstream, under a span of the gateway's own", async () => {
    const response = await fetch(`${traced.base}/v1/orders/42`, {
      headers: { authorization: `Bearer ${traced.token}`, traceparent: CLIENT_TRACEPARENT, tracestate: "vendor=opaque", "x-request-id": "traced-call" },
    });
    expect(response.status).toBe(200);
    const sent = upstream.seen.get("/v1/orders/42")!;
    const [, traceId, parentId, flags] = TRACEPARENT.exec(String(sent.traceparent))!;
    expect(traceId).toBe(TRACE_ID);
    expect(parentId).not.toBe(CLIENT_SPAN_ID);
    expect(flags).toBe("01");
    expect(sent.tracestate).toBe("vendor=opaque");
    expect(await loggedTraceId(traced.db, "traced-call")).toBe(TRACE_ID);
  });

  it("answers a problem with the trace id beside the request id", async () => {
    const response = await fetch(`${traced.base}/v1/orders/7`, { headers: { traceparent: CLIENT_TRACEPARENT, "x-request-id": "traced-refusal" } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ requestId: "traced-refusal", traceId: TRACE_ID });
    expect(await loggedTraceId(traced.db, "traced-refusal")).toBe(TRACE_ID);
  });

  it("starts a trace of its own for a traceparent that is not valid", async () => {
    const response = await fetch(`${traced.base}/v1/orders/8`, {
      headers: { authorization: `Bearer ${traced.token}`, traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}` },
    });
    expect(response.status).toBe(200);
    const [, traceId] = TRACEPARENT.exec(String(upstream.seen.get("/v1/orders/8")!.traceparent))!;
    expect(traceId).not.toBe(TRACE_ID);
  });

  it("exports a server span per request, with children for authentication, rate limit and the upstream call, and flushes them on stop", async () => {
    expect(collector.spans).toEqual([]);
    await traced.server.stop();
    tracedStopped = true;
    const called = () => collector.spans.find((span) => span.kind === SPAN_KIND.server && span.attributes["gatehouse.request_id"] === "traced-call");
    expect(await eventually(async () => called() !== undefined)).toBe(true);
    expect(collector.contentTypes).toContain("application/json");

    const server = called()!;
    expect(server).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: CLIENT_SPAN_ID,
      name: "GET /gw/sso-qa/traced/v1/orders/{id}",
      service: "gatehouse",
    });
    expect(server.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.response.status_code": 200,
      "http.route": "/gw/sso-qa/traced/v1/orders/{id}",
      "url.path": "/gw/sso-qa/traced/v1/orders/42",
      "gatehouse.env": "sso-qa",
      "gatehouse.api": "traced",
      "gatehouse.client_id": expect.stringMatching(/^gci_/),
      "gatehouse.request_id": "traced-call",
    });
    const children = collector.spans.filter((span) => span.parentSpanId === server.spanId);
    expect(children.map((span) => span.name).sort()).toEqual(["GET", "authenticate", "rate limit"]);
    for (const child of children) expect(child.traceId).toBe(TRACE_ID);
    const call = children.find((span) => span.kind === SPAN_KIND.client)!;
    const upstreamPort = (upstream.server.address() as AddressInfo).port;
    expect(call.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.response.status_code": 200,
      "server.address": "127.0.0.1",
      "server.port": upstreamPort,
      "url.full": `http://127.0.0.1:${upstreamPort}/v1/orders/42`,
    });
    // The upstream's traceparent names the call's span as its parent.
    expect(TRACEPARENT.exec(String(upstream.seen.get("/v1/orders/42")!.traceparent))![2]).toBe(call.spanId);

    const refused = collector.spans.find((span) => span.kind === SPAN_KIND.server && span.attributes["gatehouse.request_id"] === "traced-refusal")!;
    expect(refused.attributes).toMatchObject({ "http.response.status_code": 401, "gatehouse.problem": "token-missing" });
    const authentication = collector.spans.find((span) => span.parentSpanId === refused.spanId)!;
    expect(authentication).toMatchObject({ name: "authenticate", status: { code: 2 } });
    expect(authentication.attributes["error.type"]).toBe("token-missing");
  });
});

describe("without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("passes the client's traceparent on as it came, and records its trace id", async () => {
    const response = await fetch(`${untraced.base}/v1/orders/43`, {
      headers: { authorization: `Bearer ${untraced.token}`, traceparent: CLIENT_TRACEPARENT, tracestate: "vendor=opaque", "x-request-id": "untraced-call" },
    });
    expect(response.status).toBe(200);
    const sent = upstream.seen.get("/v1/orders/43")!;
    expect(sent.traceparent).toBe(CLIENT_TRACEPARENT);
    expect(sent.tracestate).toBe("vendor=opaque");
    expect(await loggedTraceId(untraced.db, "untraced-call")).toBe(TRACE_ID);
  });

  it("starts an unsampled trace for a call without one, and names it in the problem, the request log and the upstream call", async () => {
    const refused = await fetch(`${untraced.base}/v1/orders/44`, { headers: { "x-request-id": "untraced-refusal" } });
    expect(refused.status).toBe(401);
    const { traceId } = (await refused.json()) as { traceId: string };
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(await loggedTraceId(untraced.db, "untraced-refusal")).toBe(traceId);

    const invalid = await fetch(`${untraced.base}/v1/orders/45`, {
      headers: { authorization: `Bearer ${untraced.token}`, traceparent: "not-a-traceparent", tracestate: "dropped=yes" },
    });
    expect(invalid.status).toBe(200);
    const sent = upstream.seen.get("/v1/orders/45")!;
    const [, newTraceId, , flags] = TRACEPARENT.exec(String(sent.traceparent))!;
    expect(newTraceId).not.toBe(TRACE_ID);
    expect(flags).toBe("00");
    expect(sent.tracestate).toBeUndefined();
  });

  it("exports nothing", () => {
    expect(collector.spans.some((span) => span.service === "gatehouse" && span.attributes["gatehouse.api"] === "untraced")).toBe(false);
  });
});
