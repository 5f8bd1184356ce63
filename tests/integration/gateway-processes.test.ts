// The gateway-only server on several processes (GATEWAY_PROCESSES, node:cluster): calls are
// spread over the workers and behave as on one process (one rate limit, one WebSocket
// count, one /metrics), a worker that dies is replaced, a stop lets a call under way finish,
// and more than one process without Redis, or with a Redis that does not answer, is refused at start.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer, get, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import type { Db } from "../../lib/db";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb, registerProxyApi } from "./gateway-support";

const ROOT = join(import.meta.dirname, "..", "..");
const ENV = "sso-qa";
const METRICS_TOKEN = "metrics-token-for-the-cluster-tests";
const BURST = 6;
const MAX_CONNECTIONS = 2;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The processes whose parent is `pid`: a cluster primary's workers, once its start-up process has ended. */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // The command may hold spaces and parentheses; the fields after its closing one are plain.
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Which of `pids` holds the local end of the TCP connection from `port` on 127.0.0.1. */
function ownerOfPort(port: number, pids: readonly number[]): number | undefined {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  const row = readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    // A closed connection that used the same port may linger in TIME_WAIT, owned by no socket (inode 0).
    .find((fields) => fields[1] === local && fields[9] !== "0");
  if (!row) return undefined;
  const socket = `socket:[${row[9]}]`;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === socket);
    } catch {
      return false;
    }
  });
}

/**
 * An upstream that notes which worker each call and WebSocket came from, while its connection
 * is open. `/slow` answers only once `release` is called.
 */
async function upstreamOf(workers: () => number[]) {
  const callers: (number | undefined)[] = [];
  const socketCallers: (number | undefined)[] = [];
  let slowArrived: () => void = () => undefined;
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (slowArrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    callers.push(ownerOfPort(req.socket.remotePort!, workers()));
    if (req.url?.endsWith("/slow")) {
      slowArrived();
      void released.then(() => res.end("slow answer"));
      return;
    }
    res.end("hello");
  });
  const sockets = new WebSocketServer({ server });
  sockets.on("connection", (socket, req) => {
    socketCallers.push(ownerOfPort(req.socket.remotePort!, workers()));
    socket.on("message", (data) => socket.send(data));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, callers, socketCallers, arrived, release };
}

/** A call on a connection of its own, so that the cluster hands each to the next worker. */
function call(url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res: IncomingMessage) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    }).on("error", reject);
  });
}

/** The sum of a counter's series whose labels include every one of `labels`. */
function counterSum(exposition: string, name: string, labels: Record<string, string>): number {
  return exposition
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

function connect(url: string, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    socket.once("open", () => resolve(socket));
    socket.once("unexpected-response", (_request, response) => reject(new Error(`handshake answered ${response.statusCode}`)));
    socket.once("error", reject);
  });
}

function refusedStatus(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    socket.once("open", () => reject(new Error("the handshake was accepted")));
    socket.once("error", () => undefined);
    socket.once("unexpected-response", (_request, response: IncomingMessage) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
  });
}

describe("the gateway-only server on two processes", () => {
  let server: TestServer;
  let db: Db;
  let upstream: Awaited<ReturnType<typeof upstreamOf>>;
  const workers = () => childrenOf(server.pid);

  async function client() {
    const credential = await newCredential(db, ENV);
    return accessToken(server, ENV, credential);
  }

  beforeAll(async () => {
    const redis = isolatedRedisPrefix();
    cleanups.push(redis.cleanup);
    server = await startServer({
      env: { ...GATEWAY_ENV, GATEWAY_PROCESSES: "2", REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redis.prefix, METRICS_TOKEN },
      nodeArgs: GATEWAY_NODE_ARGS,
    });
    cleanups.push(() => server.stop());
    db = openDb(server);
    cleanups.push(() => db.$disconnect());
    upstream = await upstreamOf(workers);
    await db.environment.update({ where: { slug: ENV }, data: { rateLimitBurst: BURST, rateLimitPerSecond: 1 } });
    await registerProxyApi(db, { slug: "echo", upstream: upstream.url });
    await registerProxyApi(db, { slug: "sockets", upstream: upstream.url });
    const websocket = { idleTimeoutSeconds: 300, maxMessageBytes: 1024, maxConnectionsPerClient: MAX_CONNECTIONS };
    await db.api.update({ where: { slug: "sockets" }, data: { policies: { policies: { websocket } } } });
  });

  it("runs two workers, spreads calls over both, holds one rate limit across them and counts them once in /metrics", async () => {
    expect(server.output()).toContain("in 2 processes");
    expect(workers()).toHaveLength(2);
    const token = await client();
    const answers = [];
    for (let i = 0; i < BURST; i += 1) answers.push(await call(`${server.url}/gw/${ENV}/echo/hello`, token));
    expect(answers).toEqual(Array.from({ length: BURST }, () => ({ status: 200, body: "hello" })));
    expect(new Set(upstream.callers)).toEqual(new Set(workers()));
    expect((await call(`${server.url}/gw/${ENV}/echo/hello`, token)).status).toBe(429);

    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(counterSum(text, "gatehouse_gateway_requests_total", { api: "echo", status_class: "2xx" })).toBe(BURST);
    expect(counterSum(text, "gatehouse_gateway_requests_total", { api: "echo", status_class: "4xx" })).toBe(1);
  });

  it("holds a client's WebSocket connections to the policy's count across the workers", async () => {
    const token = await client();
    const url = `${server.url.replace(/^http/, "ws")}/gw/${ENV}/sockets/stream`;
    const first = await connect(url, token);
    const second = await connect(url, token);
    expect(new Set(upstream.socketCallers)).toEqual(new Set(workers()));
    expect(await refusedStatus(url, token)).toBe(429);
    first.close();
    // The place is given back in Redis once the gateway has seen the close.
    const opensAgain = () =>
      connect(url, token).then(
        (socket) => {
          socket.close();
          return true;
        },
        () => false,
      );
    expect(await eventually(opensAgain)).toBe(true);
    second.close();
  });

  it("replaces a worker that dies", async () => {
    const [killed] = workers();
    process.kill(killed!, "SIGKILL");
    expect(await eventually(async () => workers().length === 2 && !workers().includes(killed!))).toBe(true);
    // The primary's log is written asynchronously, so its line may follow the new worker.
    const ended = "gateway process ended (signal SIGKILL); starting another";
    expect(await eventually(async () => server.output().includes(ended)), server.output()).toBe(true);
    const token = await client();
    expect((await call(`${server.url}/gw/${ENV}/echo/hello`, token)).status).toBe(200);
  });

  it("on SIGTERM, stops taking connections and lets a call under way finish", async () => {
    const token = await client();
    const slow = call(`${server.url}/gw/${ENV}/echo/slow`, token);
    await upstream.arrived;
    process.kill(server.pid, "SIGTERM");
    // A connection the primary accepts while its workers close waits for one that never takes it:
    // such a probe counts as not refused yet, rather than holding the wait past the call's timeout.
    const refused = () =>
      new Promise<boolean>((resolve) => {
        const probe = get(`${server.url}/api/health`, { agent: false, timeout: 500 }, (res) => {
          res.resume();
          resolve(false);
        });
        probe.on("timeout", () => {
          probe.destroy();
          resolve(false);
        });
        probe.on("error", () => resolve(true));
      });
    expect(await eventually(refused)).toBe(true);
    upstream.release();
    expect(await slow).toEqual({ status: 200, body: "slow answer" });
  });
});

/** `npm run start:gateway` with `env`, which must fail at start: its exit code and what it printed on stderr. */
async function failedGatewayStart(env: Record<string, string>): Promise<{ code: unknown; lines: string[] }> {
  const child = spawn(process.execPath, GATEWAY_NODE_ARGS, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", APP_ENV: "test", DATABASE_URL: "file:./data/never-opened.db", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  return { code, lines: stderr.trim().split("\n") };
}

describe("more than one gateway process without Redis", () => {
  it("is refused at start with one line that says why and how to fix it", async () => {
    const { code, lines } = await failedGatewayStart({ GATEWAY_PROCESSES: "2" });
    expect(code).toBe(1);
    expect(lines).toEqual([
      "GATEWAY_PROCESSES=2 needs REDIS_URL: without Redis each process would keep its own rate limits, used token ids, response cache and WebSocket counts. Set REDIS_URL, or set GATEWAY_PROCESSES=1.",
    ]);
  });
});

// The primary loads no Redis client: its start-up process checks Redis, before the database is opened.
describe("gateway processes with a Redis that does not answer", () => {
  it.each(["1", "2"])("GATEWAY_PROCESSES=%s is refused at start with one line naming Redis, before any worker starts", async (processes) => {
    const port = await freePort();
    const { code, lines } = await failedGatewayStart({ GATEWAY_PROCESSES: processes, REDIS_URL: `redis://:secret-password@127.0.0.1:${port}` });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Cannot reach Redis at redis://127\\.0\\.0\\.1:${port} \\(.+\\)\\. Start it, or unset REDIS_URL`));
    expect(lines[0]).not.toContain("secret-password");
  });
});
