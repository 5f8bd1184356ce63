// How the server reads a request before it routes it (docs/decisions/043), on both
// processes: one canonical path, the version matched on it, and the same path forwarded;
// what cannot be made canonical, refused; header names with `_` dropped; TRACE and CONNECT
// refused everywhere, and an unmet Expect; the size limits; a connection closed after an early 413.
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addVersion, deprecate, retire } from "../../lib/api-lifecycle/versions";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createTestDatabase } from "../../lib/database/test-databases";
import type { Db } from "../../lib/db";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb, registerProxyApi } from "./gateway-support";

type Seen = { url: string; environ: Record<string, string[]> };
type RawAnswer = { status: number; headers: Record<string, string>; body: string };

const DAY = 86_400_000;
const sunset = new Date(Date.now() + 200 * DAY);
const cleanups: (() => Promise<unknown>)[] = [];
let upstream: Server;
let seen: Seen[] = [];
let full: TestServer;
let gatewayOnly: TestServer;
let db: Db;
let clientId: string;
let token: string;

/** The request's headers as CGI, WSGI and Rack read them: `-` as `_`, upper case, `HTTP_` before. */
function wsgiEnviron(rawHeaders: readonly string[]): Record<string, string[]> {
  const environ: Record<string, string[]> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const key = `HTTP_${rawHeaders[i]!.toUpperCase().replaceAll("-", "_")}`;
    (environ[key] ??= []).push(rawHeaders[i + 1]!);
  }
  return environ;
}

function startUpstream(): Promise<Server> {
  const recording = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ url: req.url!, environ: wsgiEnviron(req.rawHeaders) });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ path: req.url }));
    });
  });
  return new Promise((resolve) => recording.listen(0, "127.0.0.1", () => resolve(recording)));
}

/** Sends a request as written, without a client that would normalise its target, and reads one answer. */
function raw(port: number, head: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    const answer = (): RawAnswer | undefined => {
      const end = received.indexOf("\r\n\r\n");
      if (end === -1) return undefined;
      const [statusLine = "", ...fields] = received.subarray(0, end).toString("latin1").split("\r\n");
      const headers = Object.fromEntries(fields.map((field) => [field.slice(0, field.indexOf(":")).toLowerCase(), field.slice(field.indexOf(":") + 1).trim()]));
      const body = received.subarray(end + 4);
      if (body.length < Number(headers["content-length"] ?? 0)) return undefined;
      return { status: Number(statusLine.split(" ")[1]), headers, body: body.toString() };
    };
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const done = answer();
      if (!done) return;
      socket.destroy();
      resolve(done);
    });
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`closed without a whole answer: ${received.toString("latin1").slice(0, 300)}`)));
    socket.write(`${head}\r\n`);
  });
}

const get = (server: TestServer, target: string, fields: string[] = []) =>
  raw(server.port, [`GET ${target} HTTP/1.1`, "Host: localhost", ...fields, ""].join("\r\n"));

function expectProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toBe("application/problem+json");
  expect(answer.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body.type).toMatch(new RegExp(`/problems/${code}$`));
  expect(body).toMatchObject({ status, requestId: answer.headers["x-request-id"] });
}

beforeAll(async () => {
  upstream = await startUpstream();
  cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const port = await freePort();
  const env = { PUBLIC_URL: `http://127.0.0.1:${port}` };
  full = await startServer({ database, env, port });
  cleanups.push(() => full.stop());
  db = openDb(full);
  cleanups.push(() => db.$disconnect());
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/app`;
  await registerProxyApi(db, { slug: "ordersf", upstream: base, isPublic: true });
  await addVersion({ db, actor: CLI_ACTOR, slug: "ordersf", spec: { version: "v2", status: "current", openapiDocument: null } });
  await addVersion({ db, actor: CLI_ACTOR, slug: "ordersf", spec: { version: "v0", status: "deprecated", openapiDocument: null } });
  await retire({ db, actor: CLI_ACTOR, slug: "ordersf", version: "v0" });
  await deprecate({ db, actor: CLI_ACTOR, slug: "ordersf", version: "v1", deprecatedAt: new Date("2026-11-01T00:00:00Z"), sunsetAt: sunset });
  await registerProxyApi(db, { slug: "wsgi", upstream: { targets: [{ url: base, weight: 1 }], maxRequestBodyBytes: 1_000 } });
  const client = await newCredential(db, "sso-qa");
  clientId = client.clientId;
  token = await accessToken(full, "sso-qa", client);
  gatewayOnly = await startServer({ database, env: { ...env, ...GATEWAY_ENV }, nodeArgs: GATEWAY_NODE_ARGS });
  cleanups.push(() => gatewayOnly.stop());
  for (const server of [full, gatewayOnly]) {
    expect(await eventually(async () => (await get(server, "/gw/sso-qa/ordersf/v2/orders")).status === 200)).toBe(true);
  }
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const processes = [
  ["the full server", () => full],
  ["the gateway-only process", () => gatewayOnly],
] as const;

describe.each(processes)("on %s, the version and route are matched on one canonical path", (_name, serverOf) => {
  it("answers a retired version 410 however its segment is percent-encoded, and never reaches the upstream", async () => {
    seen = [];
    for (const target of ["/gw/sso-qa/ordersf/v0/orders", "/gw/sso-qa/ordersf/%76%30/orders", "/gw/sso-qa/ordersf/%760/orders"]) {
      expectProblem(await get(serverOf(), target), 410, "api-version-retired");
    }
    expect(seen).toEqual([]);
  });

  it.each([
    ["an encoded slash after the version", "/gw/sso-qa/ordersf/v0%2forders"],
    ["an empty segment before the version", "/gw/sso-qa/ordersf//v0/orders"],
    ["the version in upper case", "/gw/sso-qa/ordersf/V0/orders"],
    ["the version with parameters", "/gw/sso-qa/ordersf/v0;x=1/orders"],
    ["a dot segment back to the version", "/gw/sso-qa/ordersf/v2/../v0/orders"],
    ["an encoded dot segment back to the version", "/gw/sso-qa/ordersf/v2/%2e%2e/v0/orders"],
  ])("refuses %s with 400 malformed-path", async (_what, target) => {
    seen = [];
    expectProblem(await get(serverOf(), target), 400, "malformed-path");
    expect(seen).toEqual([]);
  });

  it.each([
    ["..%2f", "/gw/sso-qa/ordersf/v2/..%2f..%2fsecret"],
    ["%2e%2e%2f", "/gw/sso-qa/ordersf/v2/%2e%2e%2f%2e%2e%2fsecret"],
    ["..;", "/gw/sso-qa/ordersf/v2/..;/..;/secret"],
    ["%252e", "/gw/sso-qa/ordersf/v2/%252e%252e/%252e%252e/secret"],
    ["%252f", "/gw/sso-qa/ordersf/v2/..%252f..%252fsecret"],
    ["a backslash", "/gw/sso-qa/ordersf/v2/..\\..\\secret"],
  ])("refuses %s, which an upstream would read outside the API's base path, before it reaches the upstream", async (_what, target) => {
    seen = [];
    expectProblem(await get(serverOf(), target), 400, "malformed-path");
    expect(seen).toEqual([]);
  });

  it.each([
    ["%00, where a C string ends", "/gw/sso-qa/ordersf/v2/secret.txt%00.png"],
    ["%0D%0A, which splits a header an upstream builds from the path", "/gw/sso-qa/ordersf/v2/x%0D%0ASet-Cookie:%20a=b"],
    ["%2500, a NUL once decoded again", "/gw/sso-qa/ordersf/v2/secret.txt%2500.png"],
  ])("refuses %s before it reaches the upstream, and names the control character", async (_what, target) => {
    seen = [];
    const answer = await get(serverOf(), target);
    expectProblem(answer, 400, "malformed-path");
    expect(answer.body).toContain("control character");
    expect(seen).toEqual([]);
  });

  it("forwards exactly the canonical path it matched, with the deprecation of the version it names", async () => {
    seen = [];
    const answer = await get(serverOf(), "/gw/sso-qa/ordersf/%76%31/%6Frders/%c3%a9?q=%2e%2e");
    expect(answer.status).toBe(200);
    expect(answer.headers.deprecation).toBe(`@${Date.parse("2026-11-01T00:00:00Z") / 1000}`);
    expect(answer.headers.sunset).toBe(sunset.toUTCString());
    expect(seen.map((request) => request.url)).toEqual(["/app/v1/orders/%C3%A9?q=%2e%2e"]);
  });

  it("refuses //v1, so that the deprecated version is never served without its Deprecation and Sunset", async () => {
    expectProblem(await get(serverOf(), "/gw/sso-qa/ordersf//v1/orders"), 400, "malformed-path");
  });

  it("forwards no header whose name has an underscore: a WSGI upstream reads only the gateway's X-Client-Id and X-Forwarded-For", async () => {
    seen = [];
    const answer = await get(serverOf(), "/gw/sso-qa/wsgi/v1/orders", [
      `Authorization: Bearer ${token}`,
      "X_Client_Id: gci_victim000000000000000000",
      "X_Forwarded_For: 10.0.0.1",
      "X-Request_Id: spoofed",
      "X-Kept: yes",
    ]);
    expect(answer.status).toBe(200);
    const [request] = seen;
    expect(request?.environ.HTTP_X_CLIENT_ID).toEqual([clientId]);
    expect(request?.environ.HTTP_X_FORWARDED_FOR).toEqual(["127.0.0.1"]);
    expect(request?.environ.HTTP_X_REQUEST_ID).toEqual([answer.headers["x-request-id"]]);
    expect(request?.environ.HTTP_X_KEPT).toEqual(["yes"]);
  });
});

describe.each(processes)("on %s, what the server reads before it routes", (_name, serverOf) => {
  it("hands /./gw and /x/../gw to no one: they are refused, not served by a second gateway", async () => {
    seen = [];
    for (const target of ["/./gw/sso-qa/ordersf/v2/orders", "/x/../gw/sso-qa/ordersf/v2/orders", "/gw/./sso-qa/ordersf/v2/orders"]) {
      expectProblem(await get(serverOf(), target), 400, "malformed-path");
    }
    expect(seen).toEqual([]);
  });

  it("refuses a request without exactly one valid Host field before any route sees it; HTTP/1.0 may leave Host out", async () => {
    seen = [];
    for (const fields of ["", "Host: localhost\r\nHost: evil.example\r\n", "Host: evil.example/x\r\n"]) {
      const answer = await raw(serverOf().port, `GET /gw/sso-qa/ordersf/v2/orders HTTP/1.1\r\n${fields}`);
      expectProblem(answer, 400, "malformed-request");
      expect(answer.headers.connection).toBe("close");
    }
    expect(seen).toEqual([]);
    const old = await raw(serverOf().port, "GET /gw/sso-qa/ordersf/v2/orders HTTP/1.0\r\n");
    expect(old.status).toBe(200);
    expect(seen.map(({ url }) => url)).toEqual(["/app/v2/orders"]);
  });

  it("refuses an absolute-form target instead of redirecting to its host", async () => {
    for (const target of ["http://evil.example/apis", "http://evil.example/gw/sso-qa/ordersf/v2/orders", "*"]) {
      const answer = await get(serverOf(), target);
      expectProblem(answer, 400, "malformed-path");
      expect(answer.headers.location).toBeUndefined();
    }
  });

  it("answers a request line over 8 KiB with 414 and header fields over 16 KiB in all with 431, and closes the connection", async () => {
    const longLine = await get(serverOf(), `/gw/sso-qa/ordersf/v2/${"a".repeat(9 * 1024)}`);
    expectProblem(longLine, 414, "uri-too-long");
    expect(longLine.headers.connection).toBe("close");
    const fields = Array.from({ length: 2_000 }, (_, index) => `x-f${index}: v`);
    const manyFields = await get(serverOf(), "/gw/sso-qa/ordersf/v2/orders", fields);
    expectProblem(manyFields, 431, "headers-too-large");
    expect(manyFields.headers.connection).toBe("close");
  });

  it("closes the connection after a 413 given before the body arrived, instead of reading what the body declared", async () => {
    const socket = connect(serverOf().port, "127.0.0.1");
    let received = "";
    let closed = false;
    socket.on("data", (data: Buffer) => (received += data.toString("latin1")));
    socket.on("error", () => undefined);
    const ended = new Promise<void>((resolve) =>
      socket.on("close", () => {
        closed = true;
        resolve();
      }),
    );
    socket.write(
      `POST /gw/sso-qa/wsgi/v1/upload HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/octet-stream\r\nContent-Length: 10000000000\r\n\r\n`,
    );
    // Far less than declared, and sent only until the answer comes, as an HTTP client does.
    const chunk = Buffer.alloc(256 * 1024, "b");
    let sent = 0;
    while (!closed && !received && sent < 256 * 1024 * 1024) {
      sent += chunk.length;
      if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), ended]);
    }
    await ended;
    expect(closed).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain("connection: close");
    socket.destroy();
  });
});

describe.each(processes)("on %s, requests Node would answer bare", (_name, serverOf) => {
  it.each(["example.com:443", "127.0.0.1:22"])("refuses CONNECT %s with a 405 problem and Allow, never a tunnel", async (authority) => {
    const answer = await raw(serverOf().port, `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nX-Request-Id: req_${"c".repeat(32)}\r\n`);
    expectProblem(answer, 405, "method-not-allowed");
    expect(answer.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(answer.headers["x-request-id"]).toBe(`req_${"c".repeat(32)}`);
    expect(answer.headers.connection).toBe("close");
  });

  it.each(["/gw/sso-qa/ordersf/v2/orders", "/apis"])("refuses an Expect other than 100-continue on %s with a 417 problem that names it", async (path) => {
    seen = [];
    const answer = await get(serverOf(), path, ["Expect: 200-ok"]);
    expectProblem(answer, 417, "expectation-failed");
    expect(answer.headers.connection).toBe("close");
    expect((JSON.parse(answer.body) as { detail: string }).detail).toContain('"200-ok"');
    expect(seen).toEqual([]);
  });

  it("still answers Expect: 100-continue with 100 Continue, and the call once its body is sent", async () => {
    seen = [];
    const body = JSON.stringify({ item: 1 });
    const fields = ["Host: localhost", "Expect: 100-continue", "Content-Type: application/json", `Content-Length: ${body.length}`];
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(serverOf().port, "127.0.0.1");
      let text = "";
      socket.on("data", (data: Buffer) => {
        const first = text === "";
        text += data.toString("latin1");
        if (first) socket.write(body);
        // The 100, then the call's answer, whose JSON body may come in chunks.
        if (/\r\n\r\nHTTP\/1\.1 [\s\S]*\r\n\r\n[\s\S]*\}/.test(text)) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on("error", reject);
      socket.write(["POST /gw/sso-qa/ordersf/v2/orders HTTP/1.1", ...fields, "", ""].join("\r\n"));
    });
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    expect(seen.map(({ url }) => url)).toEqual(["/app/v2/orders"]);
  });
});

describe("TRACE on the full server's portal paths", () => {
  it.each(["/", "/api/v1/credentials", "/api/portal/teams", "/gw/sso-qa/ordersf/v2/orders"])("answers TRACE %s with 405 and Allow", async (path) => {
    const answer = await raw(full.port, `TRACE ${path} HTTP/1.1\r\nHost: localhost\r\n`);
    expectProblem(answer, 405, "method-not-allowed");
    expect(answer.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
  });
});

describe("a method a portal route does not serve, on the full server", () => {
  it.each([
    ["PUT", "/api/portal/credentials", "GET, HEAD, OPTIONS, POST"],
    ["GET", "/api/portal/contact", "OPTIONS, POST"],
    ["DELETE", "/api/health", "GET, HEAD, OPTIONS"],
    ["POST", "/llms.txt", "GET, HEAD, OPTIONS"],
    ["PUT", "/schemas/gatehouse-config.json", "GET, HEAD"],
  ])("answers %s %s with 405 method-not-allowed and the methods it serves in Allow", async (method, path, allow) => {
    const answer = await raw(full.port, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}`);
    expectProblem(answer, 405, "method-not-allowed");
    expect(answer.headers.allow).toBe(allow);
    expect(JSON.parse(answer.body)).toMatchObject({ detail: `This path does not accept ${method}; it accepts ${allow}.`, instance: path });
  });
});
