// WebSockets through the gateway, on both processes: a handshake to a route with the WebSocket
// policy is admitted like any call (the token in Authorization or, for browsers, access_token),
// tunnelled to the upstream within the policy's limits, closed with 1008 once its credential is
// revoked or its token expires, and recorded as one request-log row when it closes. An Upgrade
// anywhere else is refused with a problem document, or served as the plain request it also is.
import { randomUUID } from "node:crypto";
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { revokeCredential } from "../../lib/credentials/credentials";
import type { Db } from "../../lib/db";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, eventually, GATEWAY_PROCESSES, newCredential, openDb, registerProxyApi, signWithRealKey } from "./gateway-support";

const ENV = "sso-qa";
const METRICS_TOKEN = "metrics-token-for-the-websocket-tests";
const MAX_MESSAGE_BYTES = 1024;
const MAX_CONNECTIONS = 2;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** What the upstream saw of each handshake. */
type Seen = { url: string; headers: IncomingHttpHeaders };

/**
 * An upstream that echoes every message as it came (text as text), choosing the first
 * subprotocol offered; at `/forbidden` it refuses the handshake 403, at `/bye` it closes at
 * once with 4000, at `/flood` it sends a message over the gateway's limit.
 */
async function echoUpstream(): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = new WebSocketServer({
    port: 0,
    host: "127.0.0.1",
    handleProtocols: (protocols) => [...protocols][0] ?? false,
    verifyClient: ({ req }, done) => (req.url?.endsWith("/forbidden") ? done(false, 403, "not for you") : done(true)),
  });
  server.on("connection", (socket, req) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary }));
    if (req.url?.endsWith("/bye")) socket.close(4000, "bye");
    if (req.url?.endsWith("/flood")) socket.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1));
  });
  await new Promise((resolve) => server.once("listening", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

type Opened = { socket: WebSocket; closed: Promise<{ code: number; reason: string }> };

/** Opens a WebSocket through the gateway; resolves once it is open. */
function connect(url: string, options: { headers?: Record<string, string>; protocols?: string[] } = {}): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
    const closed = new Promise<{ code: number; reason: string }>((done) => socket.once("close", (code, reason) => done({ code, reason: reason.toString() })));
    socket.once("open", () => resolve({ socket, closed }));
    socket.once("unexpected-response", (_request, response) => reject(new Error(`handshake answered ${response.statusCode}`)));
    socket.once("error", reject);
  });
}

type Refusal = { status: number; headers: IncomingHttpHeaders; body: Record<string, unknown> };

/** A handshake the gateway refuses: its status, fields and problem document. */
function refused(url: string, headers: Record<string, string> = {}): Promise<Refusal> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once("open", () => reject(new Error("the handshake was accepted")));
    socket.once("error", () => undefined);
    socket.once("unexpected-response", (_request, response: IncomingMessage) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) as Record<string, unknown> }));
    });
  });
}

/** The next message on a socket, as text. */
function nextMessage(socket: WebSocket): Promise<{ text: string; isBinary: boolean }> {
  return new Promise((resolve) => socket.once("message", (data: Buffer, isBinary) => resolve({ text: data.toString(), isBinary })));
}

describe.each(GATEWAY_PROCESSES)("WebSockets through the gateway on $name", ({ env, nodeArgs }) => {
  let server: TestServer;
  let db: Db;
  let upstream: { url: string; seen: Seen[] };
  let base: string;

  /** A new client granted every API registered so far, and a token of its. */
  async function client() {
    const credential = await newCredential(db, ENV);
    return { ...credential, token: await accessToken(server, ENV, credential) };
  }

  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= server.stop());

  beforeAll(async () => {
    server = await startServer({ env: { ...env, METRICS_TOKEN }, nodeArgs });
    cleanups.push(stop);
    db = openDb(server);
    cleanups.push(() => db.$disconnect());
    upstream = await echoUpstream();
    base = `${server.url.replace(/^http/, "ws")}/gw/${ENV}`;
    const websocket = { idleTimeoutSeconds: 300, maxMessageBytes: MAX_MESSAGE_BYTES, maxConnectionsPerClient: MAX_CONNECTIONS };
    const apis: { slug: string; policies: object | null; isPublic?: boolean; target?: string }[] = [
      { slug: "sockets", policies: { policies: { websocket } } },
      { slug: "quiet-sockets", policies: { policies: { websocket: { ...websocket, idleTimeoutSeconds: 1 } } } },
      { slug: "plain", policies: null },
      { slug: "open-sockets", policies: { policies: { websocket } }, isPublic: true },
      { slug: "dead-sockets", policies: { policies: { websocket } }, target: `http://127.0.0.1:${await freePort()}` },
    ];
    for (const api of apis) {
      await registerProxyApi(db, { slug: api.slug, upstream: api.target ?? `${upstream.url}/base`, isPublic: api.isPublic });
      if (api.policies) await db.api.update({ where: { slug: api.slug }, data: { policies: api.policies } });
    }
  }, 120_000);

  it("echoes text and binary messages through the gateway, with the upstream's subprotocol and the gateway's identity fields", async () => {
    const { clientId, token } = await client();
    const { socket } = await connect(`${base}/sockets/feed?topic=a%20b`, { headers: { authorization: `Bearer ${token}` }, protocols: ["chat.v1", "chat.v0"] });
    expect(socket.protocol).toBe("chat.v1");
    const text = nextMessage(socket);
    socket.send("hello");
    expect(await text).toEqual({ text: "hello", isBinary: false });
    const binary = nextMessage(socket);
    socket.send(Buffer.from([1, 2, 3]));
    expect(await binary).toEqual({ text: "\x01\x02\x03", isBinary: true });
    socket.close(1000);
    const handshake = upstream.seen.at(-1)!;
    expect(handshake.url).toBe("/base/feed?topic=a%20b");
    expect(handshake.headers["x-client-id"]).toBe(clientId);
    expect(handshake.headers.authorization).toBeUndefined();
    expect(handshake.headers["x-request-id"]).toBeTruthy();
  });

  it("takes a browser's token as access_token, which the upstream never sees, and refuses a token sent twice", async () => {
    const { token } = await client();
    const { socket } = await connect(`${base}/sockets/feed?access_token=${encodeURIComponent(token)}&after=1`);
    const echoed = nextMessage(socket);
    socket.send("from a browser");
    expect((await echoed).text).toBe("from a browser");
    socket.close(1000);
    const handshake = upstream.seen.at(-1)!;
    expect(handshake.url).toBe("/base/feed?after=1");
    expect(JSON.stringify(handshake.headers)).not.toContain(token);

    const twice = await refused(`${base}/sockets/feed?access_token=${token}`, { authorization: `Bearer ${token}` });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ status: 400, errors: [{ in: "query", field: "access_token" }] });
    expect(server.output()).not.toContain(token);
  });

  it("passes a close code and reason from the upstream to the client, and closes both with 1009 on an upstream message over the limit", async () => {
    const { token } = await client();
    const headers = { authorization: `Bearer ${token}` };
    expect(await (await connect(`${base}/sockets/bye`, { headers })).closed).toEqual({ code: 4000, reason: "bye" });
    expect((await (await connect(`${base}/sockets/flood`, { headers })).closed).code).toBe(1009);
  });

  it("passes the upstream's refusal of the handshake to the client, and refuses 502 when no target answers", async () => {
    const { token } = await client();
    const headers = { authorization: `Bearer ${token}`, "x-request-id": `ws-${randomUUID()}` };
    const forbidden = await new Promise<{ status: number; requestId: unknown }>((resolve, reject) => {
      const socket = new WebSocket(`${base}/sockets/forbidden`, { headers });
      socket.once("open", () => reject(new Error("the handshake was accepted")));
      socket.once("error", () => undefined);
      socket.once("unexpected-response", (_request, response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, requestId: response.headers["x-request-id"] });
      });
    });
    expect(forbidden).toEqual({ status: 403, requestId: headers["x-request-id"] });
    const dead = await refused(`${base}/dead-sockets/feed`, headers);
    expect(dead.status).toBe(502);
    expect(dead.body).toMatchObject({ type: `${server.url}/problems/upstream-unreachable`, requestId: headers["x-request-id"] });
  });

  it("opens a public API's WebSocket without a token, and sends the upstream no client id", async () => {
    const { socket } = await connect(`${base}/open-sockets/feed`);
    const echoed = nextMessage(socket);
    socket.send("anyone");
    expect((await echoed).text).toBe("anyone");
    socket.close(1000);
    expect(upstream.seen.at(-1)!.headers["x-client-id"]).toBeUndefined();
  });

  it("refuses a handshake without a token 401, as problem+json with the request id", async () => {
    const requestId = `ws-${randomUUID()}`;
    const answer = await refused(`${base}/sockets/feed`, { "x-request-id": requestId });
    expect(answer.status).toBe(401);
    expect(answer.headers["content-type"]).toBe("application/problem+json");
    expect(answer.headers["www-authenticate"]).toContain("Bearer");
    expect(answer.body).toMatchObject({ type: `${server.url}/problems/token-missing`, status: 401, requestId });
  });

  it("refuses an Upgrade to an API without the policy 400 websocket-not-enabled, before asking for a token", async () => {
    const requestId = `ws-${randomUUID()}`;
    const answer = await refused(`${base}/plain/feed`, { "x-request-id": requestId });
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/problem+json");
    expect(answer.body).toMatchObject({ type: `${server.url}/problems/websocket-not-enabled`, requestId, instance: `/gw/${ENV}/plain/feed` });
    const notifications = await refused(`${base}/notifications/v1/notifications`);
    expect(notifications.body).toMatchObject({ type: `${server.url}/problems/websocket-not-enabled` });
  });

  it("refuses a malformed handshake with a problem document naming the field", async () => {
    const { token } = await client();
    const answer = await new Promise<{ status: number; body: string }>((resolve) => {
      const request = httpRequest(`${server.url}/gw/${ENV}/sockets/feed`, {
        headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "short", authorization: `Bearer ${token}` },
      });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ errors: [{ in: "header", field: "sec-websocket-key" }] });
  });

  it("refuses one connection more than the client may hold 429, and takes one again once another closes", async () => {
    const { token } = await client();
    const headers = { authorization: `Bearer ${token}` };
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => connect(`${base}/sockets/feed`, { headers })));
    const answer = await refused(`${base}/sockets/feed`, headers);
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ type: `${server.url}/problems/websocket-connection-limit`, status: 429 });
    const other = await client();
    const otherSocket = await connect(`${base}/sockets/feed`, { headers: { authorization: `Bearer ${other.token}` } });
    otherSocket.socket.close(1000);
    held[0]!.socket.close(1000);
    await held[0]!.closed;
    // The place is given back once the gateway has seen the close, which the client may see first.
    const reopened = () =>
      connect(`${base}/sockets/feed`, { headers }).then(
        (again) => (again.socket.close(1000), true),
        () => false,
      );
    expect(await eventually(reopened)).toBe(true);
    held[1]!.socket.close(1000);
  });

  it("closes a connection whose client sends a message over the limit with 1009", async () => {
    const { token } = await client();
    const { socket, closed } = await connect(`${base}/sockets/feed`, { headers: { authorization: `Bearer ${token}` } });
    socket.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1));
    expect((await closed).code).toBe(1009);
  });

  it("closes a connection with no message either way for the idle timeout with 1001", async () => {
    const { token } = await client();
    const { closed } = await connect(`${base}/quiet-sockets/feed`, { headers: { authorization: `Bearer ${token}` } });
    expect(await closed).toEqual({ code: 1001, reason: "idle timeout" });
  });

  it("closes the connections of a revoked credential with 1008 within the caches' bound", async () => {
    const { clientId, token } = await client();
    const { socket, closed } = await connect(`${base}/sockets/feed`, { headers: { authorization: `Bearer ${token}` } });
    const echoed = nextMessage(socket);
    socket.send("still here");
    await echoed;
    await revokeCredential({ db, actor: CLI_ACTOR, clientId });
    const ended = await Promise.race([closed, new Promise<undefined>((resolve) => setTimeout(resolve, 7_000))]);
    expect(ended).toEqual({ code: 1008, reason: "credential revoked" });
  });

  it("closes a connection once its token expires, with 1008", async () => {
    const { clientId } = await client();
    const now = Math.floor(Date.now() / 1000);
    const token = await signWithRealKey(server, db, { envSlug: ENV, clientId, claims: { scope: "", exp: now + 2 } });
    const { closed } = await connect(`${base}/sockets/feed`, { headers: { authorization: `Bearer ${token}` } });
    expect(await closed).toEqual({ code: 1008, reason: "access token expired" });
  });

  it("records one request-log row per connection when it closes, with its bytes each way, and counts its messages", async () => {
    const { clientId, token } = await client();
    const requestId = `ws-${randomUUID()}`;
    const { socket, closed } = await connect(`${base}/sockets/feed?access_token=${token}`, { headers: { "x-request-id": requestId } });
    for (const message of ["abc", "defgh"]) {
      const echoed = nextMessage(socket);
      socket.send(message);
      await echoed;
    }
    socket.close(1000);
    await closed;
    expect(await eventually(async () => (await db.requestLog.count({ where: { requestId } })) === 1)).toBe(true);
    const row = await db.requestLog.findFirstOrThrow({ where: { requestId } });
    expect(row).toMatchObject({
      status: 101,
      method: "GET",
      route: "/*",
      clientId,
      environment: ENV,
      api: "sockets",
      bytesIn: 8,
      bytesOut: 8,
    });
    expect(row.latencyMs).toBeGreaterThan(0);
    const output = await server.settledOutput();
    expect(output).not.toContain(token);
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/gatehouse_websocket_messages_total\{env="sso-qa",api="sockets",direction="in"\} [1-9]/);
    expect(metrics).toMatch(/gatehouse_websocket_messages_total\{env="sso-qa",api="sockets",direction="out"\} [1-9]/);
    expect(metrics).toContain("gatehouse_websocket_connections");
  });

  it("serves an Upgrade elsewhere as the plain request it also is", async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${server.url}/api/health`, { headers: { connection: "Upgrade", upgrade: "websocket" } });
      request.on("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("upgrade", () => reject(new Error("upgraded")));
      request.end();
    });
    expect(answer).toBe(200);
  });

  it("closes its connections with 1001 as the process stops", async () => {
    const { token } = await client();
    const { closed } = await connect(`${base}/sockets/feed`, { headers: { authorization: `Bearer ${token}` } });
    await stop();
    expect(await closed).toEqual({ code: 1001, reason: "server shutting down" });
  });
});
