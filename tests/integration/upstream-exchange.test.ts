// What passes between a client, the gateway and an upstream, on both processes (the full
// server and the gateway alone, on one database): a client's own broken request body is
// never held against the upstream, the upstream's answer is confined to its API (cookies,
// script, redirects), and an answer HTTP cannot carry is a 502.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { createTestDatabase } from "../../lib/database/test-databases";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import { freePort, startServer, type TestServer } from "../support/server";
import { eventually, openDb, registerProxyApi } from "./gateway-support";

const GATEWAY_PUBLIC_URL = "https://api.gatehouse.example";
const cleanups: (() => Promise<unknown>)[] = [];
let full: TestServer;
let gatewayOnly: TestServer;
let db: Db;
let upstream: Server;
let upstreamOrigin: string;
/** the Cookie header of each call the upstream received, by its path */
const cookiesSeen = new Map<string, string | undefined>();

function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url!, "http://upstream");
  const path = url.pathname.replace(/^\/base/, "");
  cookiesSeen.set(path, req.headers.cookie);
  if (path === "/page") {
    res.writeHead(200, [
      ["content-type", "text/html"],
      ["set-cookie", "next-auth.session-token=another-account; Path=/; HttpOnly"],
      ["set-cookie", "__Host-next-auth.csrf-token=planted; Path=/; Secure"],
      ["set-cookie", "theme=dark; Path=/"],
      ["set-cookie", "app=1; Domain=gatehouse.example; Path=/; HttpOnly; SameSite=Lax"],
    ]);
    return void res.end("<script>fetch('/api/auth/session')</script>");
  }
  if (path === "/own-policy") {
    res.writeHead(200, { "content-type": "text/html", "content-security-policy": "img-src 'self'" });
    return void res.end("<p>own policy</p>");
  }
  if (path === "/redirect") {
    res.writeHead(302, { location: url.searchParams.get("to")!, "content-location": url.searchParams.get("content") ?? "/base/here" });
    return void res.end();
  }
  if (path === "/status") {
    res.writeHead(Number(url.searchParams.get("code")), { "content-type": "text/plain" });
    return void res.end("odd");
  }
  if (path === "/broken") {
    res.writeHead(200, { "content-type": "text/plain", "transfer-encoding": "chunked" });
    res.flushHeaders();
    // A chunk size that is not hexadecimal: the chunked framing breaks after the headers.
    return void setTimeout(() => res.socket!.end("5\r\nhello\r\nzz\r\n"), 50);
  }
  req.resume();
  req.on("end", () => res.end("ok"));
}

beforeAll(async () => {
  upstream = createServer(answer);
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const port = await freePort();
  const env = { PUBLIC_URL: `http://127.0.0.1:${port}`, GATEWAY_PUBLIC_URL };
  full = await startServer({ database, env, port });
  cleanups.push(() => full.stop());
  db = openDb(full);
  cleanups.push(() => db.$disconnect());
  gatewayOnly = await startServer({ database, env: { ...env, ...GATEWAY_ENV }, nodeArgs: GATEWAY_NODE_ARGS });
  cleanups.push(() => gatewayOnly.stop());
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A public API on the test's upstream, each test its own so that one target's health is the test's alone. */
async function registerApi(server: TestServer, slug: string, extra: { contentSecurityPolicy?: string | false } = {}): Promise<string> {
  await registerProxyApi(db, { slug, isPublic: true, upstream: { targets: [{ url: `${upstreamOrigin}/base` }], ...extra } });
  const base = `${server.url}/gw/sso-qa/${slug}`;
  expect(await eventually(async () => (await fetch(`${base}/ready`)).status !== 404)).toBe(true);
  return base;
}

/** Writes `raw` on a socket of its own, waits `holdMs`, then reads what came back and closes the socket. */
async function rawExchange(server: TestServer, raw: string, holdMs: number): Promise<string> {
  const socket = connect(server.port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  socket.on("error", () => undefined);
  socket.write(raw);
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  socket.destroy();
  return received;
}

async function logged(requestId: string): Promise<{ status: number; problem: string | null }> {
  let row: { status: number; problem: string | null } | null = null;
  await eventually(async () => (row = await db.requestLog.findFirst({ where: { requestId }, select: { status: true, problem: true } })) !== null);
  if (!row) throw new Error(`no request log row for ${requestId}`);
  return row;
}

describe.each([
  ["the full server", () => full],
  ["the gateway-only process", () => gatewayOnly],
])("on %s", (name, serverOf) => {
  const tag = name === "the full server" ? "full" : "gw";

  it("never ejects a target for bodies its clients cut short or broke, and logs them as 499 and 400", async () => {
    const server = serverOf();
    const base = await registerApi(server, `client-faults-${tag}`);
    const path = new URL(base).pathname;
    for (let i = 0; i < 4; i++) {
      await rawExchange(
        server,
        `POST ${path}/upload HTTP/1.1\r\nHost: x\r\nX-Request-Id: cut-${tag}-${i}\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nhello`,
        300,
      );
      const refused = await rawExchange(
        server,
        `POST ${path}/upload HTTP/1.1\r\nHost: x\r\nX-Request-Id: chunk-${tag}-${i}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n\r\n`,
        300,
      );
      expect(refused).toMatch(/^HTTP\/1\.1 400 /);
    }
    const good = await fetch(`${base}/upload`, { method: "POST", body: "a whole body" });
    expect(good.status).toBe(200);
    expect(await good.text()).toBe("ok");
    expect(server.output()).not.toContain("upstream target ejected");
    expect(await logged(`cut-${tag}-3`)).toEqual({ status: 499, problem: "client-closed-request" });
    expect(await logged(`chunk-${tag}-3`)).toEqual({ status: 400, problem: "malformed-request" });
  });

  it("sandboxes every proxied answer, and confines its cookies to the API", async () => {
    const base = await registerApi(serverOf(), `confined-${tag}`);
    const response = await fetch(`${base}/page`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.getSetCookie()).toEqual([`app=1; HttpOnly; SameSite=Lax; Path=/gw/sso-qa/confined-${tag}/`]);
  });

  it("keeps the portal's cookies from the upstream, and passes the API's own", async () => {
    const base = await registerApi(serverOf(), `cookie-jar-${tag}`);
    const response = await fetch(`${base}/jar`, {
      headers: { cookie: "next-auth.session-token=portal-session; app=1; __Secure-next-auth.callback-url=x; theme=dark; next-auth.csrf-token=c" },
    });
    expect(response.status).toBe(200);
    expect(cookiesSeen.get("/jar")).toBe("app=1");
    await fetch(`${base}/only-portal`, { headers: { cookie: "next-auth.session-token=portal-session" } });
    expect(cookiesSeen.has("/only-portal")).toBe(true);
    expect(cookiesSeen.get("/only-portal")).toBeUndefined();
  });

  it("maps the target's redirects onto the API, passes other hosts' as they are, and refuses a protocol-relative one", async () => {
    const base = await registerApi(serverOf(), `redirects-${tag}`);
    const apiPath = `/gw/sso-qa/redirects-${tag}`;
    const to = async (location: string, content?: string) => {
      const query = new URLSearchParams({ to: location, ...(content ? { content } : {}) });
      return fetch(`${base}/redirect?${query}`, { redirect: "manual" });
    };
    const internal = await to(`${upstreamOrigin}/base/orders/7?x=1`);
    expect(internal.status).toBe(302);
    expect(internal.headers.get("location")).toBe(`${apiPath}/orders/7?x=1`);
    expect(internal.headers.get("content-location")).toBe(`${apiPath}/here`);
    expect((await to("next")).headers.get("location")).toBe(`${apiPath}/next`);
    expect((await to("https://idp.example/login")).headers.get("location")).toBe("https://idp.example/login");
    const outside = await to(`${upstreamOrigin}/admin`, "/elsewhere");
    expect(outside.status).toBe(502);
    for (const location of ["//evil.example/x", "/\\evil.example/x", "javascript:alert(1)"]) {
      const refused = await to(location);
      expect(refused.status, location).toBe(502);
      expect(refused.headers.get("location")).toBeNull();
      expect(((await refused.json()) as { type: string }).type).toMatch(/\/problems\/upstream-invalid-response$/);
    }
    const dropped = await to(`${upstreamOrigin}/base/fine`, "//evil.example/x");
    expect(dropped.status).toBe(302);
    expect(dropped.headers.get("content-location")).toBeNull();
  });

  it("answers 502 for a status HTTP does not define, and logs an answer the upstream broke off as 502", async () => {
    const base = await registerApi(serverOf(), `odd-answers-${tag}`);
    for (const code of [600, 999]) {
      const response = await fetch(`${base}/status?code=${code}`);
      expect(response.status).toBe(502);
      expect(((await response.json()) as { detail: string }).detail).toContain(String(code));
    }
    const requestId = `broken-${tag}`;
    const broken = await fetch(`${base}/broken`, { headers: { "x-request-id": requestId } });
    expect(broken.status).toBe(200);
    await expect(broken.text()).rejects.toThrow();
    expect(await logged(requestId)).toEqual({ status: 502, problem: "upstream-invalid-response" });
  });
});

describe("an API's own Content-Security-Policy", () => {
  it("replaces the default when given, goes when false, and stays beside an upstream's own policy", async () => {
    const own = await registerApi(full, "own-csp", { contentSecurityPolicy: "default-src 'self'" });
    expect((await fetch(`${own}/page`)).headers.get("content-security-policy")).toBe("default-src 'self'");
    const none = await registerApi(full, "no-csp", { contentSecurityPolicy: false });
    expect((await fetch(`${none}/page`)).headers.get("content-security-policy")).toBeNull();
    expect((await fetch(`${none}/own-policy`)).headers.get("content-security-policy")).toBe("img-src 'self'");
    const both = await registerApi(full, "both-csp");
    expect((await fetch(`${both}/own-policy`)).headers.get("content-security-policy")).toBe("img-src 'self', sandbox; default-src 'none'");
  });
});

describe("GATEWAY_PUBLIC_URL", () => {
  it("is the server of the portal's OpenAPI documents, while the gateway still answers under PUBLIC_URL", async () => {
    const document = (await (await fetch(`${full.url}/apis/notifications/openapi.json?env=sso-qa`)).json()) as { servers: { url: string }[] };
    expect(document.servers.map((server) => server.url)).toEqual([`${GATEWAY_PUBLIC_URL}/gw/sso-qa/notifications`]);
  });
});
