// The response cache policy (DESIGN §6, "Response cache"): what is stored and served, whose
// answers a client may see, and what invalidates them, on the full server with entries in its
// memory and on the gateway-only process with entries in Redis; two instances on one Redis and
// one PostgreSQL database share an entry and its invalidation. One upstream answers every case
// and counts the calls it got per path, which tells a hit from a miss.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { revokeCredential } from "../../lib/credentials/credentials";
import { createPostgresDatabase, POSTGRES_SERVER_URL } from "../../lib/database/test-databases";
import type { Db } from "../../lib/db";
import type { ApiPolicies } from "../../lib/gateway/policies/policy-set";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, eventually, GATEWAY_PROCESSES, newCredential, openDb, registerProxyApi } from "./gateway-support";

const ENV = "sso-qa";
const MAX_BODY_BYTES = 64 * 1024;
const MAX_BYTES = 256 * 1024;
/** Small bounds, so a test can pass them, and a directory reread within a third of a second, so a policy written applies soon. */
const METRICS_TOKEN = "metrics-token-for-the-cache-tests";
const CACHE_ENV = {
  METRICS_TOKEN,
  GATEWAY_RESPONSE_CACHE_MAX_BYTES: String(MAX_BYTES),
  GATEWAY_RESPONSE_CACHE_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  GATEWAY_CACHE_MAX_AGE_MS: "300",
};
const CACHED: ApiPolicies = { policies: { responseCache: { ttlSeconds: 60, shared: false } } };

const cleanups: (() => Promise<unknown>)[] = [];
let upstream: Server;
const calls = new Map<string, number>();

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Answers by the path's first segment after /base; every answer names how many calls its path and query have had. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url!, "http://upstream");
  const count = (calls.get(req.url!) ?? 0) + 1;
  calls.set(req.url!, count);
  const body = (extra: object = {}) => JSON.stringify({ count, ...extra });
  const json = { "content-type": "application/json" };
  if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(201, json).end(body());
  switch (url.pathname.split("/")[2]) {
    case "max-age":
      return void res.writeHead(200, { ...json, "cache-control": "max-age=1" }).end(body());
    case "aged":
      return void res.writeHead(200, { ...json, "cache-control": "max-age=100", age: "30" }).end(body());
    case "no-store":
      return void res.writeHead(200, { ...json, "cache-control": "no-store" }).end(body());
    case "private":
      return void res.writeHead(200, { ...json, "cache-control": "private, max-age=60" }).end(body());
    case "cookie":
      return void res.writeHead(200, { ...json, "set-cookie": "session=abc; Path=/" }).end(body());
    case "vary-star":
      return void res.writeHead(200, { ...json, vary: "*" }).end(body());
    case "vary":
      return void res.writeHead(200, { ...json, vary: "X-Variant" }).end(body({ variant: req.headers["x-variant"] ?? null }));
    case "forbidden":
      return void res.writeHead(403, json).end(body());
    case "big":
      return void res.writeHead(200, { "content-type": "text/plain", "content-length": String(MAX_BODY_BYTES + 1) }).end(Buffer.alloc(MAX_BODY_BYTES + 1, "b"));
    case "streamed-big": {
      // Chunked, so the gateway learns the size only as the body passes.
      res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 5; i++) res.write(Buffer.alloc(MAX_BODY_BYTES / 4, "s"));
      return void res.end();
    }
    case "sized":
      // Just under the body cap: four of them pass the in-memory bound.
      return void res.writeHead(200, { "content-type": "text/plain", "x-count": String(count) }).end(Buffer.alloc(MAX_BODY_BYTES - 1024, "z"));
    case "revalidated": {
      if (req.headers["if-none-match"] === '"v1"') return void res.writeHead(304, { etag: '"v1"', "cache-control": "no-cache" }).end();
      return void res.writeHead(200, { ...json, etag: '"v1"', "cache-control": "no-cache" }).end(body());
    }
    default:
      return void res.writeHead(200, json).end(body());
  }
}

beforeAll(async () => {
  upstream = createServer(answer);
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
});

/** The APIs of a server's database, all on the one upstream: public, protected, and protected with `shared: true`. */
const APIS = {
  open: { slug: "cache-open", isPublic: true, policies: CACHED },
  closed: { slug: "cache-closed", isPublic: false, policies: CACHED },
  shared: { slug: "cache-shared", isPublic: false, policies: { policies: { responseCache: { ttlSeconds: 60, shared: true } } } },
  changing: { slug: "cache-changing", isPublic: false, policies: CACHED },
};

async function registerApis(db: Db): Promise<void> {
  const { port } = upstream.address() as AddressInfo;
  for (const api of Object.values(APIS)) {
    await registerProxyApi(db, { slug: api.slug, isPublic: api.isPublic, upstream: `http://127.0.0.1:${port}/base`, env: ENV });
    await db.api.update({ where: { slug: api.slug }, data: { policies: api.policies } });
  }
}

type Call = { status: number; cacheStatus: string | null; age: string | null; body: string; headers: Headers };

async function get(server: TestServer, path: string, init: { token?: string; method?: string; headers?: Record<string, string> } = {}): Promise<Call> {
  const response = await fetch(`${server.url}/gw/${ENV}${path}`, {
    method: init.method ?? "GET",
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers },
  });
  const body = await response.text();
  return { status: response.status, cacheStatus: response.headers.get("cache-status"), age: response.headers.get("age"), body, headers: response.headers };
}

/** The value of one series of `/metrics`, 0 when it is not there yet. */
async function series(server: TestServer, name: string, api: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split("\n").find((each) => each.startsWith(`${name}{env="${ENV}",api="${api}"}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

const countOf = (call: Call) => (JSON.parse(call.body) as { count: number }).count;

let unique = 0;
/** A path no other test has called, so its entries are the test's own. */
const fresh = (kind: string) => `/${kind}/${++unique}-${Date.now()}`;

type Deployment = { server: TestServer; db: Db; token: () => Promise<string> };

async function deployment(server: TestServer, db: Db): Promise<Deployment> {
  return {
    server,
    db,
    token: async () => accessToken(server, ENV, await newCredential(db, ENV)),
  };
}

/** The full server keeps entries in its memory; the gateway-only process, in Redis. */
const DEPLOYMENTS = [
  { ...GATEWAY_PROCESSES[0]!, store: "memory" },
  { ...GATEWAY_PROCESSES[1]!, store: "Redis" },
];

let memoryDeployment: Deployment;
let redisPair: { first: Deployment; second: Deployment; redis: ReturnType<typeof isolatedRedisPrefix> };

beforeAll(async () => {
  const memoryServer = await startServer({ env: CACHE_ENV });
  cleanups.push(() => memoryServer.stop());
  const memoryDb = openDb(memoryServer);
  cleanups.push(() => memoryDb.$disconnect());
  await registerApis(memoryDb);
  memoryDeployment = await deployment(memoryServer, memoryDb);

  const redis = isolatedRedisPrefix();
  cleanups.push(() => redis.cleanup());
  const database = await createPostgresDatabase(POSTGRES_SERVER_URL ?? "postgresql://root@127.0.0.1:5432/postgres");
  cleanups.push(() => database.drop());
  // Two instances of one deployment: one public URL, so one issuer.
  const port = await freePort();
  const env = { ...CACHE_ENV, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redis.prefix, PUBLIC_URL: `http://127.0.0.1:${port}` };
  const full = await startServer({ database, env, port });
  cleanups.push(() => full.stop());
  const db = openDb(full);
  cleanups.push(() => db.$disconnect());
  await registerApis(db);
  const gatewayOnly = await startServer({ database, env: { ...env, ...GATEWAY_PROCESSES[1]!.env }, nodeArgs: GATEWAY_PROCESSES[1]!.nodeArgs });
  cleanups.push(() => gatewayOnly.stop());
  redisPair = { first: await deployment(full, db), second: await deployment(gatewayOnly, db), redis };
}, 240_000);

describe.each(DEPLOYMENTS)("the response cache on $name, entries in $store", ({ store }) => {
  const at = () => (store === "memory" ? memoryDeployment : redisPair.second);

  it("stores a miss, then serves it with Age and Cache-Status hit; HEAD is answered from the GET's entry", async () => {
    const { server } = at();
    const path = `/cache-open${fresh("plain")}`;
    const counted = async () => ({
      hits: await series(server, "gatehouse_response_cache_hits_total", "cache-open"),
      misses: await series(server, "gatehouse_response_cache_misses_total", "cache-open"),
      stores: await series(server, "gatehouse_response_cache_stores_total", "cache-open"),
    });
    const before = await counted();
    const miss = await get(server, path);
    expect(miss.status).toBe(200);
    expect(miss.cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    expect(miss.age).toBeNull();
    const hit = await get(server, path);
    expect(hit).toMatchObject({ status: 200, cacheStatus: "Gatehouse; hit", body: miss.body });
    expect(Number(hit.age)).toBeGreaterThanOrEqual(0);
    expect(hit.headers.get("content-type")).toBe("application/json");
    expect(hit.headers.get("x-request-id")).toBeTruthy();
    const head = await get(server, path, { method: "HEAD" });
    expect(head).toMatchObject({ status: 200, cacheStatus: "Gatehouse; hit", body: "" });
    expect(calls.get(`/base${path.slice("/cache-open".length)}`)).toBe(1);
    expect(await counted()).toEqual({ hits: before.hits + 2, misses: before.misses + 1, stores: before.stores + 1 });
    // Another query is another entry.
    expect((await get(server, `${path}?page=2`)).cacheStatus).toBe("Gatehouse; fwd=miss; stored");
  });

  it("never serves an entry past max-age, which bounds the policy's TTL, and counts an arrived Age", async () => {
    const { server } = at();
    const path = `/cache-open${fresh("max-age")}`;
    expect(countOf(await get(server, path))).toBe(1);
    const hit = await get(server, path);
    expect(hit.cacheStatus).toBe("Gatehouse; hit");
    expect(hit.age).toBe("0");
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    const after = await get(server, path);
    expect(after.cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    expect(countOf(after)).toBe(2);
    const aged = `/cache-open${fresh("aged")}`;
    await get(server, aged);
    expect((await get(server, aged)).age).toBe("30");
  });

  it.each([
    ["no-store", "no-store"],
    ["private", "private"],
    ["cookie", "set-cookie"],
    ["vary-star", "vary-star"],
    ["big", "too-large"],
    ["forbidden", "status"],
  ])("does not store an answer with %s", async (kind, detail) => {
    const { server } = at();
    const path = `/cache-open${fresh(kind)}`;
    const first = await get(server, path);
    expect(first.cacheStatus).toBe(`Gatehouse; fwd=miss; detail=${detail}`);
    expect((await get(server, path)).cacheStatus).toBe(`Gatehouse; fwd=miss; detail=${detail}`);
    expect(calls.get(`/base${path.slice("/cache-open".length)}`)).toBe(2);
  });

  it("passes a streamed body over the cap on whole, and does not store it", async () => {
    const { server } = at();
    const path = `/cache-open${fresh("streamed-big")}`;
    const first = await get(server, path);
    expect(first.body.length).toBe(5 * (MAX_BODY_BYTES / 4));
    const second = await get(server, path);
    expect(second.cacheStatus).not.toBe("Gatehouse; hit");
    expect(second.body.length).toBe(first.body.length);
    expect(calls.get(`/base${path.slice("/cache-open".length)}`)).toBe(2);
  });

  it("keeps an entry per value of the request fields Vary names", async () => {
    const { server } = at();
    const path = `/cache-open${fresh("vary")}`;
    const red = await get(server, path, { headers: { "x-variant": "red" } });
    const blue = await get(server, path, { headers: { "x-variant": "blue" } });
    expect(JSON.parse(blue.body)).toEqual({ count: 2, variant: "blue" });
    const redAgain = await get(server, path, { headers: { "x-variant": "red" } });
    expect(redAgain).toMatchObject({ cacheStatus: "Gatehouse; hit", body: red.body });
    const blueAgain = await get(server, path, { headers: { "x-variant": "blue" } });
    expect(blueAgain).toMatchObject({ cacheStatus: "Gatehouse; hit", body: blue.body });
  });

  it("revalidates a no-cache answer with its ETag, and a 304 serves and refreshes the entry", async () => {
    const { server } = at();
    const path = `/cache-open${fresh("revalidated")}`;
    const first = await get(server, path);
    expect(first.cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    const second = await get(server, path);
    expect(second).toMatchObject({ status: 200, cacheStatus: "Gatehouse; fwd=stale; fwd-status=304; stored", body: first.body, age: "0" });
    expect(calls.get(`/base${path.slice("/cache-open".length)}`)).toBe(2);
  });

  it("keeps a protected API's answers per client, unless the policy says shared", async () => {
    const { server, token } = at();
    const [a, b] = [await token(), await token()];
    const path = fresh("plain");
    const ofA = await get(server, `/cache-closed${path}`, { token: a });
    expect(ofA.cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    const ofB = await get(server, `/cache-closed${path}`, { token: b });
    expect(ofB.cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    expect(countOf(ofB)).toBe(2);
    expect((await get(server, `/cache-closed${path}`, { token: a })).body).toBe(ofA.body);
    expect((await get(server, `/cache-closed${path}`)).status).toBe(401);
    await get(server, `/cache-shared${path}`, { token: a });
    expect((await get(server, `/cache-shared${path}`, { token: b })).cacheStatus).toBe("Gatehouse; hit");
  });

  it("answers a revoked credential 401 where its call would be a hit", async () => {
    const { server, db } = at();
    const client = await newCredential(db, ENV);
    const token = await accessToken(server, ENV, client);
    const path = `/cache-closed${fresh("plain")}`;
    await get(server, path, { token });
    expect((await get(server, path, { token })).cacheStatus).toBe("Gatehouse; hit");
    await revokeCredential({ db, actor: CLI_ACTOR, clientId: client.clientId });
    expect(await eventually(async () => (await get(server, path, { token })).status === 401)).toBe(true);
  });

  it("invalidates a path's entries, every client's and every query's, on a successful write to it", async () => {
    const { server, token } = at();
    const [a, b] = [await token(), await token()];
    const path = `/cache-closed${fresh("plain")}`;
    await get(server, path, { token: a });
    await get(server, `${path}?q=1`, { token: b });
    expect((await get(server, path, { token: a })).cacheStatus).toBe("Gatehouse; hit");
    expect((await get(server, path, { token: b, method: "POST" })).status).toBe(201);
    expect((await get(server, path, { token: a })).cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    expect((await get(server, `${path}?q=1`, { token: b })).cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      await get(server, path, { token: a, method });
      expect((await get(server, path, { token: a })).cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    }
  });

  it("leaves behind the entries stored under an upstream or a policy that changed", async () => {
    const { server, db, token } = at();
    const caller = await token();
    const path = `/cache-changing${fresh("plain")}`;
    const isHit = async () => (await get(server, path, { token: caller })).cacheStatus === "Gatehouse; hit";
    await get(server, path, { token: caller });
    expect(await isHit()).toBe(true);
    const { port } = upstream.address() as AddressInfo;
    const api = await db.api.findUniqueOrThrow({ where: { slug: APIS.changing.slug } });
    await db.apiEnvironment.updateMany({
      where: { apiId: api.id },
      data: { upstream: { targets: [{ url: `http://127.0.0.1:${port}/base`, weight: 1 }], retries: unique % 3 } },
    });
    expect(await eventually(async () => !(await isHit()))).toBe(true);
    expect(await isHit()).toBe(true);
    const ttlSeconds = 61 + unique;
    await db.api.update({ where: { slug: APIS.changing.slug }, data: { policies: { policies: { responseCache: { ttlSeconds, shared: false } } } } });
    expect(await eventually(async () => (await get(server, path, { token: caller })).cacheStatus !== "Gatehouse; hit")).toBe(true);
    await db.api.update({ where: { slug: APIS.changing.slug }, data: { policies: {} } });
    expect(await eventually(async () => (await get(server, path, { token: caller })).cacheStatus === null)).toBe(true);
  });
});

describe("the response cache shared through Redis", () => {
  it("serves one instance's entry on the other, and a write through one invalidates it on both", async () => {
    const { first, second } = redisPair;
    const token = await first.token();
    const path = `/cache-closed${fresh("plain")}`;
    const stored = await get(first.server, path, { token });
    expect(stored.cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    expect(await get(second.server, path, { token })).toMatchObject({ cacheStatus: "Gatehouse; hit", body: stored.body });
    expect((await get(second.server, path, { token, method: "DELETE" })).status).toBe(201);
    const refetched = await get(first.server, path, { token });
    expect(refetched.cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    // The upstream counts the DELETE too.
    expect(countOf(refetched)).toBe(3);
    expect(await get(second.server, path, { token })).toMatchObject({ cacheStatus: "Gatehouse; hit", body: refetched.body });
    expect(await redisPair.redis.redis.keys(`${redisPair.redis.prefix}rc:*`)).not.toHaveLength(0);
  });
});

describe("the response cache in memory", () => {
  it("evicts the least recently used entries past GATEWAY_RESPONSE_CACHE_MAX_BYTES", async () => {
    const { server } = memoryDeployment;
    const paths = Array.from({ length: 5 }, () => `/cache-open${fresh("sized")}`);
    for (const path of paths) expect((await get(server, path)).cacheStatus).toBe("Gatehouse; fwd=miss; stored");
    // Five entries of nearly 64 KiB do not fit in 256 KiB: the first one stored is gone, the last is kept.
    expect((await get(server, paths[4]!)).cacheStatus).toBe("Gatehouse; hit");
    expect((await get(server, paths[0]!)).cacheStatus).toBe("Gatehouse; fwd=miss; stored");
  });
});
