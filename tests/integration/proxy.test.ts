import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb, registerProxyApi } from "./gateway-support";

type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };

const METRICS_TOKEN = "metrics-token-for-the-proxy-tests";
const ORDERS_DOCUMENT = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Orders", version: "1.0.0" },
  // Servers play no part: paths are relative to the API's base in the gateway.
  servers: [{ url: "https://orders.internal/api" }],
  paths: {
    "/v1/orders": { get: { responses: { 200: { description: "Orders" } } } },
    "/v1/orders/{id}": { get: { responses: { 200: { description: "One order" } } } },
  },
});

let upstream: Server;
let seen: Seen[] = [];
/** The upstream answers of /base/endless that ended before the upstream finished them. */
let abandoned = 0;
const GZIPPED = gzipSync(JSON.stringify({ compressed: "as the upstream sent it" }));
let server: TestServer;
let db: Db;
let token: string;
let clientId: string;

/** Sends `count` chunks 300 ms apart: each gap shorter than the gateway's timeout, all of them longer. */
function trickle(res: ServerResponse, count: number): void {
  res.writeHead(200, { "content-type": "text/plain" });
  let sent = 0;
  const timer = setInterval(() => {
    res.write(`chunk ${++sent}\n`);
    if (sent < count) return;
    clearInterval(timer);
    res.end();
  }, 300);
}

/** Streams 64 KiB chunks until the reader goes away, and counts that it did. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/octet-stream" });
  const chunk = Buffer.alloc(64 * 1024, "e");
  const write = () => {
    while (!res.destroyed && res.write(chunk));
  };
  res.on("drain", write).on("close", () => {
    if (!res.writableFinished) abandoned++;
  });
  write();
}

/** A real upstream: echoes what it received, or stalls on /slow. */
function startUpstream(): Promise<Server> {
  const upstreamServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url?.startsWith("/base/slow")) return void setTimeout(() => res.end("late"), 3_000);
      if (req.url?.startsWith("/base/stall")) {
        res.writeHead(200, { "content-type": "text/plain" });
        return void res.write("partial");
      }
      if (req.url?.startsWith("/base/big")) return void res.end(Buffer.alloc(8 * 1024 * 1024, "z"));
      if (req.url?.startsWith("/base/trickle")) return void trickle(res, 5);
      if (req.url?.startsWith("/base/endless")) return void endless(res);
      if (req.url?.startsWith("/base/gzip")) {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        return void res.end(GZIPPED);
      }
      if (req.url?.startsWith("/base/hops")) {
        res.writeHead(200, { connection: "x-upstream-hop", "x-upstream-hop": "one connection's", "keep-alive": "timeout=5", "x-kept": "yes" });
        return void res.end("hops");
      }
      if (req.url?.startsWith("/base/missing")) {
        res.writeHead(404, { "content-type": "application/problem+json" });
        return void res.end(JSON.stringify({ type: "https://upstream.example/problems/missing", title: "Missing", status: 404 }));
      }
      if (req.url?.startsWith("/base/cookies")) {
        res.writeHead(200, [
          ["set-cookie", "a=1; Path=/"],
          ["set-cookie", "b=2; Path=/; Expires=Wed, 09 Jun 2027 10:18:14 GMT"],
        ]);
        return void res.end();
      }
      res.writeHead(201, { "content-type": "application/json", "x-upstream": "yes", "proxy-authenticate": "Basic realm=upstream" });
      res.end(JSON.stringify({ echoed: Buffer.concat(chunks).toString() }));
    });
  });
  return new Promise((resolve) => upstreamServer.listen(0, "127.0.0.1", () => resolve(upstreamServer)));
}

/** node:http rather than fetch, which refuses to send the hop-by-hop headers under test. */
function rawRequest(url: string, method: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; headers: IncomingMessage["headers"]; body: string; bytes: Buffer }>((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body: bytes.toString(), bytes });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startServer({ env: { UPSTREAM_TIMEOUT_MS: "500", METRICS_TOKEN } });
  db = openDb(server);
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/base`;
  await registerProxyApi(db, { slug: "echo", upstream: `${base}/` });
  await registerProxyApi(db, { slug: "gone", upstream: `http://127.0.0.1:${await freePort()}` });
  await registerProxyApi(db, { slug: "open", upstream: base, isPublic: true });
  await registerProxyApi(db, { slug: "scoped", upstream: base, scopes: ["scoped:use"] });
  await registerProxyApi(db, { slug: "orders", upstream: base, openapiDocument: ORDERS_DOCUMENT });
  await registerProxyApi(db, { slug: "open-orders", upstream: base, isPublic: true, openapiDocument: ORDERS_DOCUMENT });
  const client = await newCredential(db, "sso-qa");
  clientId = client.clientId;
  token = await accessToken(server, "sso-qa", client);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe("proxying to a registered upstream", () => {
  it("forwards a POST without a body as one without a body", async () => {
    seen = [];
    const response = await rawRequest(`${server.url}/gw/sso-qa/echo/v1/ping`, "POST", { authorization: `Bearer ${token}` }, "");
    expect(response.status).toBe(201);
    expect(seen[0]!.body).toBe("");
    expect(seen[0]!.headers["transfer-encoding"]).toBeUndefined();
  });

  it("keeps each Set-Cookie of the upstream a field of its own, confined to the API's path", async () => {
    const response = await rawRequest(`${server.url}/gw/sso-qa/echo/cookies`, "GET", { authorization: `Bearer ${token}` }, "");
    expect(response.status).toBe(200);
    expect(response.headers["set-cookie"]).toEqual(["a=1; Path=/gw/sso-qa/echo/", "b=2; Expires=Wed, 09 Jun 2027 10:18:14 GMT; Path=/gw/sso-qa/echo/"]);
  });

  it("forwards method, path remainder, query and body, with the gateway's identity headers", async () => {
    seen = [];
    const response = await rawRequest(
      `${server.url}/gw/sso-qa/echo/v1/items/42?filter=a%20b&x=1`,
      "POST",
      {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "x-client-id": "gci_spoofed",
        forwarded: "for=6.6.6.6",
        "x-forwarded-for": "6.6.6.6",
        connection: "x-secret-hop",
        "x-secret-hop": "drop me",
        "x-custom": "kept",
        "x-request-id": "proxy-test-1",
      },
      JSON.stringify({ hello: "upstream" }),
    );
    expect(response.status).toBe(201);
    expect(response.headers["x-upstream"]).toBe("yes");
    expect(response.headers["proxy-authenticate"]).toBeUndefined();
    expect(response.headers["x-request-id"]).toBe("proxy-test-1");
    expect(response.headers["ratelimit-policy"]).toBeTruthy();
    expect(JSON.parse(response.body)).toEqual({ echoed: '{"hello":"upstream"}' });
    const [request] = seen;
    expect(request).toMatchObject({ method: "POST", url: "/base/v1/items/42?filter=a%20b&x=1", body: '{"hello":"upstream"}' });
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.headers["x-client-id"]).toBe(clientId);
    expect(request!.headers["x-request-id"]).toBe("proxy-test-1");
    // No proxy is trusted, so the client's own forwarding headers are replaced by its socket address.
    expect(request!.headers.forwarded).toBe(`for=127.0.0.1;host="${new URL(server.url).host}";proto=http`);
    expect(request!.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(request!.headers["x-secret-hop"]).toBeUndefined();
    expect(request!.headers["x-custom"]).toBe("kept");
  });

  it("streams a larger request body through", async () => {
    seen = [];
    const payload = "x".repeat(256 * 1024);
    const response = await fetch(`${server.url}/gw/sso-qa/echo/upload`, { method: "PUT", headers: { authorization: `Bearer ${token}` }, body: payload });
    expect(response.status).toBe(201);
    expect(seen[0]!.body.length).toBe(payload.length);
  });

  it("streams a large upstream response back whole", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa/echo/big`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBe(8 * 1024 * 1024);
    expect(body.every((byte) => byte === 0x7a)).toBe(true);
  });

  it("still enforces authentication before proxying", async () => {
    seen = [];
    const response = await fetch(`${server.url}/gw/sso-qa/echo/v1/items`);
    expect(response.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it("proxies a public API without a token, and without any client identity", async () => {
    seen = [];
    const response = await fetch(`${server.url}/gw/sso-qa/open/status`, { headers: { "x-client-id": "gci_spoofed" } });
    expect(response.status).toBe(201);
    expect(seen[0]!.url).toBe("/base/status");
    expect(seen[0]!.headers["x-client-id"]).toBeUndefined();
  });

  it("requires one of a scoped proxied API's scopes in the token", async () => {
    const client = await newCredential(db, "sso-qa");
    const withScope = await accessToken(server, "sso-qa", client, "scoped:use");
    const without = await accessToken(server, "sso-qa", client, "notifications:read");
    expect((await fetch(`${server.url}/gw/sso-qa/scoped/x`, { headers: { authorization: `Bearer ${withScope}` } })).status).toBe(201);
    const refused = await fetch(`${server.url}/gw/sso-qa/scoped/x`, { headers: { authorization: `Bearer ${without}` } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="sso-qa", error="insufficient_scope", scope="scoped:use"');
    expect((await refused.json()).type).toBe(`${server.url}/problems/scope-missing`);
  });

  it("answers 504 when the upstream times out", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa/echo/slow`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(504);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect((await response.json()).type).toBe(`${server.url}/problems/upstream-timeout`);
  });

  it("cuts off a response body that stalls for the timeout", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa/echo/stall`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it("answers 502 when the upstream cannot be reached", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa/gone/anything`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(502);
    expect((await response.json()).type).toBe(`${server.url}/problems/upstream-unreachable`);
  });

  it("records the problem type of the gateway's own refusals only, not of the upstream's answers", async () => {
    const call = (path: string, id: string) => fetch(`${server.url}/gw/sso-qa/${path}`, { headers: { authorization: `Bearer ${token}`, "x-request-id": id } });
    expect((await call("echo/missing", "proxy-upstream-404")).status).toBe(404);
    expect((await call("gone/anything", "proxy-unreachable")).status).toBe(502);
    const problemOf = async (requestId: string) => {
      await eventually(async () => (await db.requestLog.count({ where: { requestId } })) === 1);
      return (await db.requestLog.findFirstOrThrow({ where: { requestId }, select: { problem: true } })).problem;
    };
    expect(await problemOf("proxy-upstream-404")).toBeNull();
    expect(await problemOf("proxy-unreachable")).toBe("upstream-unreachable");
  });

  it("passes a compressed answer through as the upstream sent it, asked for with the client's Accept-Encoding", async () => {
    seen = [];
    const response = await rawRequest(`${server.url}/gw/sso-qa/echo/gzip`, "GET", { authorization: `Bearer ${token}`, "accept-encoding": "gzip" }, "");
    expect(response.status).toBe(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(response.bytes.equals(GZIPPED)).toBe(true);
    expect(seen[0]!.headers["accept-encoding"]).toBe("gzip");
  });

  it("drops the answer's hop-by-hop fields and those its Connection header names", async () => {
    const response = await rawRequest(`${server.url}/gw/sso-qa/echo/hops`, "GET", { authorization: `Bearer ${token}` }, "");
    expect(response.status).toBe(200);
    expect(response.body).toBe("hops");
    expect(response.headers["x-kept"]).toBe("yes");
    expect(response.headers["x-upstream-hop"]).toBeUndefined();
    expect(response.headers.connection).toBe("keep-alive");
    // The gateway's own connection to this client, not the upstream's.
    expect(response.headers["keep-alive"]).toBe("timeout=65");
  });

  it("lets a download run past the timeout while its chunks keep arriving within it", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa/echo/trickle`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    // Five chunks 300 ms apart outlast the 500 ms timeout, which applies to each silence only.
    expect(await response.text()).toBe("chunk 1\nchunk 2\nchunk 3\nchunk 4\nchunk 5\n");
  });

  it("ends the upstream request when the client leaves mid-download", async () => {
    abandoned = 0;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${server.url}/gw/sso-qa/echo/endless`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    expect(await eventually(async () => abandoned === 1)).toBe(true);
  });

  it("rate-limits, records and counts every proxied call", async () => {
    const client = await newCredential(db, "sso-qa");
    await db.credential.update({ where: { clientId: client.clientId }, data: { rateLimitBurst: 1, rateLimitPerSecond: 1 } });
    const limited = await accessToken(server, "sso-qa", client);
    seen = [];
    const call = (requestId: string) =>
      fetch(`${server.url}/gw/sso-qa/echo/counted`, { headers: { authorization: `Bearer ${limited}`, "x-request-id": requestId } });
    const allowed = await call("proxy-limit-1");
    expect(allowed.status).toBe(201);
    expect(allowed.headers.get("ratelimit-policy")).toBe(`"client";q=1;w=1`);
    const refused = await call("proxy-limit-2");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({ type: `${server.url}/problems/rate-limited`, requestId: "proxy-limit-2" });
    expect(seen).toHaveLength(1);

    await eventually(async () => (await db.requestLog.count({ where: { clientId: client.clientId, api: "echo" } })) === 2);
    const rows = await db.requestLog.findMany({ where: { clientId: client.clientId, api: "echo" }, orderBy: { requestId: "asc" } });
    expect(rows.map(({ requestId, api, route, status, problem }) => ({ requestId, api, route, status, problem }))).toEqual([
      { requestId: "proxy-limit-1", api: "echo", route: "/*", status: 201, problem: null },
      { requestId: "proxy-limit-2", api: "echo", route: "/*", status: 429, problem: "rate-limited" },
    ]);

    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/^gatehouse_gateway_requests_total\{env="sso-qa",api="echo",route="\/\*",status_class="2xx"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^gatehouse_rate_limit_refusals_total\{env="sso-qa",api="echo"\} 1$/m);
  });
});

describe("routes from the API's OpenAPI document", () => {
  it("records a proxied call under the template its path matches, and a path the document does not declare as (undeclared)", async () => {
    const call = (path: string, requestId: string, api = "orders") =>
      fetch(`${server.url}/gw/sso-qa/${api}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "x-request-id": requestId } });
    expect((await call("/v1/orders/42", "routes-declared")).status).toBe(201);
    expect((await call("/v1/orders", "routes-collection")).status).toBe(201);
    expect((await call("/v1/orders/42/lines", "routes-undeclared")).status).toBe(201);
    expect((await call("/v1/orders/7", "routes-public", "open-orders")).status).toBe(201);
    expect((await call("/v1/orders/7", "routes-without-document", "echo")).status).toBe(201);

    const ids = ["routes-declared", "routes-collection", "routes-undeclared", "routes-public", "routes-without-document"];
    await eventually(async () => (await db.requestLog.count({ where: { requestId: { in: ids } } })) === ids.length);
    const rows = await db.requestLog.findMany({ where: { requestId: { in: ids } }, select: { requestId: true, route: true } });
    expect(Object.fromEntries(rows.map((row) => [row.requestId, row.route]))).toEqual({
      "routes-declared": "/v1/orders/{id}",
      "routes-collection": "/v1/orders",
      "routes-undeclared": "(undeclared)",
      "routes-public": "/v1/orders/{id}",
      "routes-without-document": "/*",
    });

    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/^gatehouse_gateway_requests_total\{env="sso-qa",api="orders",route="\/v1\/orders\/\{id\}",status_class="2xx"\} 1$/m);
    expect(metrics).toMatch(/^gatehouse_gateway_requests_total\{env="sso-qa",api="orders",route="\(undeclared\)",status_class="2xx"\} 1$/m);
    expect(metrics).toMatch(/^gatehouse_gateway_request_duration_seconds_count\{env="sso-qa",api="orders",route="\/v1\/orders\/\{id\}"\} 1$/m);
  });
});

describe("proxying behind trusted proxies", () => {
  let behind: TestServer;
  let behindDb: Db;

  beforeAll(async () => {
    behind = await startServer({ env: { TRUSTED_PROXIES: "127.0.0.1, ::1" } });
    behindDb = openDb(behind);
    await registerProxyApi(behindDb, { slug: "open", upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/base`, isPublic: true });
    // The API is registered after the server started: it is served once the server's directory has read it.
    expect(await eventually(async () => (await fetch(`${behind.url}/gw/sso-qa/open/ready`)).status !== 404)).toBe(true);
  });

  afterAll(async () => {
    await behindDb?.$disconnect();
    await behind?.stop();
  });

  it("forwards the client's address that a trusted proxy reports, in Forwarded and X-Forwarded-For", async () => {
    seen = [];
    const response = await rawRequest(`${behind.url}/gw/sso-qa/open/who`, "GET", { "x-forwarded-for": "198.51.100.9, 203.0.113.7" }, "");
    expect(response.status).toBe(201);
    expect(seen[0]!.headers["x-forwarded-for"]).toBe("203.0.113.7");
    expect(seen[0]!.headers.forwarded).toBe(`for=203.0.113.7;host="${new URL(behind.url).host}";proto=http`);
  });

  it("brackets and quotes an IPv6 client in Forwarded", async () => {
    seen = [];
    const response = await rawRequest(`${behind.url}/gw/sso-qa/open/who`, "GET", { forwarded: 'for="[2001:db8::7]"' }, "");
    expect(response.status).toBe(201);
    expect(seen[0]!.headers["x-forwarded-for"]).toBe("2001:db8::7");
    expect(seen[0]!.headers.forwarded).toBe(`for="[2001:db8::7]";host="${new URL(behind.url).host}";proto=http`);
  });
});
