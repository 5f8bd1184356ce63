import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVELOPMENT_AUTH_SECRET } from "../../lib/config";
import { createDb, type Db } from "../../lib/db";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { startServer, type TestServer } from "../support/server";

type Client = { env: string; environmentId: string; clientId: string; token: string };
type Resource = { id: string; status: string; readAt: string | null; updatedAt: string; createdAt: string; title: string };

let server: TestServer;
let db: Db;
let alice: Client;
let bob: Client;
/** Alice's application again, in another environment */
let alicePlatform: Client;
let reader: Client;

async function tokenFor(env: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${server.url}/gw/${env}/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function client(appName: string, env: string, scopes?: string[]): Promise<Client> {
  const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: appName });
  const { credential, secret } = await createCredential({
    db,
    actor: CLI_ACTOR,
    applicationId: application.id,
    envSlug: env,
    scopes,
    authSecret: DEVELOPMENT_AUTH_SECRET,
  });
  return {
    env,
    environmentId: credential.environment.id,
    clientId: credential.clientId,
    token: await tokenFor(env, credential.clientId, secret!.clientSecret),
  };
}

function call(who: Client, path: string, init: RequestInit = {}, env = who.env): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${who.token}`);
  return fetch(`${server.url}/gw/${env}/notifications/v1/notifications${path}`, { ...init, headers });
}

function put(who: Client, id: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(who, `/${id}`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function notify(who: Client, fields: Partial<Parameters<typeof createNotifications>[0]> = {}): Promise<string> {
  const [id] = await createNotifications({ db, environmentId: who.environmentId, recipients: { clientIds: [who.clientId] }, title: "Hello", ...fields });
  return id!;
}

type Problem = {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance: string;
  requestId: string;
  traceId: string;
  errors?: { in: string; field: string; message: string }[];
};

async function problem(response: Response, status: number): Promise<Problem> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("x-request-id")).toBeTruthy();
  const body = (await response.json()) as Problem;
  expect(body).toMatchObject({ status, requestId: response.headers.get("x-request-id") });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|Prisma|stack/i);
  return body;
}

async function fieldsNamed(response: Response): Promise<string[]> {
  const body = await problem(response, 400);
  expect(body.type).toMatch(/\/problems\/validation-failed$/);
  return (body.errors ?? []).map((error) => `${error.in}:${error.field}`);
}

beforeAll(async () => {
  server = await startServer();
  db = createDb(server.databaseUrl);
  // These tests call faster than the default budget allows; rate limiting is tested with the gateway.
  await db.environment.updateMany({ data: { rateLimitBurst: 100_000, rateLimitPerSecond: 100_000 } });
  alice = await client("Alice App", "sso-qa");
  bob = await client("Bob App", "sso-qa");
  alicePlatform = await client("Alice App", "platform-dev");
  reader = await client("Reader App", "sso-qa", ["notifications:read"]);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe("GET /v1/notifications", () => {
  it("lists the caller's notifications newest first, 20 by default, with nextCursor and a Link header", async () => {
    const base = Date.parse("2024-03-01T12:00:00.000Z");
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await notify(reader, { title: `n${i}`, createdAt: new Date(base + i * 1000) }));
    const response = await call(reader, "");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const page = (await response.json()) as { items: Resource[]; nextCursor: string | null };
    expect(page.items.map((item) => item.id)).toEqual(ids.slice(5).reverse());
    expect(page.items[0]).toEqual({
      id: ids[24],
      title: "n24",
      body: "",
      category: "system",
      severity: "info",
      status: "unread",
      link: null,
      createdAt: new Date(base + 24_000).toISOString(),
      updatedAt: new Date(base + 24_000).toISOString(),
      readAt: null,
    });
    expect(page.nextCursor).toEqual(expect.any(String));
    const link = response.headers.get("link");
    expect(link).toBe(`<${server.url}/gw/sso-qa/notifications/v1/notifications?cursor=${page.nextCursor}>; rel="next"`);
    const next = await call(reader, `?cursor=${page.nextCursor}`);
    const last = (await next.json()) as { items: Resource[]; nextCursor: string | null };
    expect(last).toEqual({ items: expect.any(Array), nextCursor: null });
    expect(last.items.map((item) => item.id)).toEqual(ids.slice(0, 5).reverse());
    expect(next.headers.get("link")).toBeNull();
  });

  it("returns every notification exactly once while new ones arrive between pages", async () => {
    const who = await client("Pager App", "sso-qa");
    const tie = new Date("2024-05-05T05:05:05.000Z");
    const existing: string[] = [];
    for (let i = 0; i < 9; i++) existing.push(await notify(who, { title: `tie ${i}`, createdAt: tie }));
    for (let i = 0; i < 14; i++) existing.push(await notify(who, { title: `old ${i}`, createdAt: new Date(tie.getTime() - (i + 1) * 7) }));
    const seen: string[] = [];
    let query = "?limit=5";
    for (let pages = 0; pages < 20; pages++) {
      const [response] = await Promise.all([call(who, query), notify(who, { title: "arrived while paging" })]);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { items: Resource[]; nextCursor: string | null };
      seen.push(...page.items.map((item) => item.id));
      await notify(who, { title: "arrived between pages" });
      if (!page.nextCursor) break;
      query = `?limit=5&cursor=${page.nextCursor}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => existing.includes(id)).sort()).toEqual([...existing].sort());
  });

  it("filters by status, category, severity and since, and keeps filters on the next link", async () => {
    const who = await client("Filter App", "sso-qa");
    const critical = await notify(who, { severity: "critical", category: "security", createdAt: new Date("2024-01-02T00:00:00Z") });
    const billing = await notify(who, { category: "billing", createdAt: new Date("2024-01-01T00:00:00Z") });
    const old = await notify(who, { category: "billing", createdAt: new Date("2023-01-01T00:00:00Z") });
    expect((await put(who, billing, { status: "archived" })).status).toBe(200);
    const ids = async (query: string) => ((await (await call(who, query)).json()) as { items: Resource[] }).items.map((item) => item.id);
    expect(await ids("?severity=critical")).toEqual([critical]);
    expect(await ids("?category=billing")).toEqual([billing, old]);
    expect(await ids("?status=archived")).toEqual([billing]);
    expect(await ids("?status=unread,archived&since=2023-12-31T00:00:00%2B01:00")).toEqual([critical, billing]);
    expect(await ids("?status=read")).toEqual([]);
    const paged = await call(who, "?category=billing&limit=1");
    expect(paged.headers.get("link")).toMatch(/\?category=billing&limit=1&cursor=[\w-]+>; rel="next"$/);
  });

  it.each([
    ["?colour=red", ["query:colour"]],
    ["?limit=0", ["query:limit"]],
    ["?limit=101", ["query:limit"]],
    ["?limit=ten", ["query:limit"]],
    ["?limit=1.5", ["query:limit"]],
    ["?limit=5&limit=6", ["query:limit"]],
    ["?status=unread,gone", ["query:status"]],
    ["?status=", ["query:status"]],
    ["?category=gossip", ["query:category"]],
    ["?severity=LOW", ["query:severity"]],
    ["?since=yesterday", ["query:since"]],
    ["?cursor=not-a-cursor", ["query:cursor"]],
    ["?cursor=", ["query:cursor"]],
    [`?cursor=${Buffer.from(JSON.stringify([0, "ntf_\u0000"])).toString("base64url")}`, ["query:cursor"]],
    ["?limit=0&category=gossip&extra=1", ["query:extra", "query:category", "query:limit"]],
  ])("answers %s with a 400 naming the parameter", async (query, fields) => {
    expect((await fieldsNamed(await call(alice, query))).sort()).toEqual([...fields].sort());
  });
});

describe("GET /v1/notifications/{id}", () => {
  it("answers 200 with a strong ETag, and 304 to a matching If-None-Match", async () => {
    const id = await notify(alice, { title: "Fetch me", link: "https://example.com/x", severity: "warning" });
    const response = await call(alice, `/${id}`);
    expect(response.status).toBe(200);
    const etag = response.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(await response.json()).toMatchObject({ id, title: "Fetch me", link: "https://example.com/x", severity: "warning", status: "unread" });
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const cached = await call(alice, `/${id}`, { headers: { "if-none-match": ifNoneMatch } });
      expect(cached.status).toBe(304);
      expect(cached.headers.get("etag")).toBe(etag);
      expect(await cached.text()).toBe("");
    }
    expect((await call(alice, `/${id}`, { headers: { "if-none-match": '"stale"' } })).status).toBe(200);
  });

  it("answers 400 naming If-None-Match or If-Match when it is longer than the 256 characters the document declares", async () => {
    const id = await notify(alice, { title: "Long tags" });
    const long = `"${"v".repeat(300)}"`;
    expect(await fieldsNamed(await call(alice, `/${id}`, { headers: { "if-none-match": long } }))).toEqual(["header:If-None-Match"]);
    expect(await fieldsNamed(await put(alice, id, { status: "read" }, { "if-match": long }))).toEqual(["header:If-Match"]);
  });

  it("answers 404 for an unknown id", async () => {
    const body = await problem(await call(alice, "/ntf_doesnotexist"), 404);
    expect(body).toMatchObject({ title: "Not found", instance: "/gw/sso-qa/notifications/v1/notifications/ntf_doesnotexist" });
  });

  it("refuses a NUL in an id before routing (decision 084), and answers 404, not 500, for ids that cannot exist", async () => {
    for (const id of ["%00", "ntf_%00"]) {
      expect((await problem(await call(alice, `/${id}`), 400)).type).toMatch(/\/problems\/malformed-path$/);
      expect((await problem(await put(alice, id, { status: "read" }), 400)).type).toMatch(/\/problems\/malformed-path$/);
    }
    await problem(await call(alice, "/not-an-id"), 404);
    await problem(await put(alice, "not-an-id", { status: "read" }), 404);
  });
});

describe("PUT /v1/notifications/{id}", () => {
  it("sets readAt when first read, keeps it on archive, clears it on unread, with a new ETag each time", async () => {
    const id = await notify(alice);
    const before = await call(alice, `/${id}`);
    const firstEtag = before.headers.get("etag");
    const read = await put(alice, id, { status: "read" });
    expect(read.status).toBe(200);
    const readBody = (await read.json()) as Resource;
    expect(readBody).toMatchObject({ id, status: "read", readAt: expect.stringMatching(/Z$/) });
    expect(read.headers.get("etag")).not.toBe(firstEtag);
    const archived = (await (await put(alice, id, { status: "archived" })).json()) as Resource;
    expect(archived.readAt).toBe(readBody.readAt);
    const reread = (await (await put(alice, id, { status: "read" })).json()) as Resource;
    expect(reread.readAt).toBe(readBody.readAt);
    const unread = await put(alice, id, { status: "unread" });
    expect(await unread.json()).toMatchObject({ status: "unread", readAt: null });
    expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "unread", readAt: null, version: 5 });
    const fetched = await call(alice, `/${id}`);
    expect(fetched.headers.get("etag")).toBe(unread.headers.get("etag"));
  });

  it("accepts the fetched representation sent back with a new status", async () => {
    const id = await notify(alice, { link: "https://example.com/y" });
    const fetched = (await (await call(alice, `/${id}`)).json()) as Resource;
    const response = await put(alice, id, { ...fetched, status: "archived" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id, status: "archived" });
  });

  it("honours If-Match: 412 and nothing changed on a mismatch, 200 on a match", async () => {
    const id = await notify(alice);
    const etag = (await call(alice, `/${id}`)).headers.get("etag")!;
    const stale = await put(alice, id, { status: "read" }, { "if-match": '"v999"' });
    expect((await problem(stale, 412)).type).toMatch(/precondition-failed$/);
    expect((await put(alice, id, { status: "read" }, { "if-match": `W/${etag}` })).status).toBe(412);
    expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "unread", version: 1 });
    const matched = await put(alice, id, { status: "read" }, { "if-match": etag });
    expect(matched.status).toBe(200);
  });

  it("lets exactly one of two concurrent updates with the same If-Match win", async () => {
    for (let round = 0; round < 5; round++) {
      const id = await notify(alice);
      const etag = (await call(alice, `/${id}`)).headers.get("etag")!;
      const responses = await Promise.all([
        put(alice, id, { status: "read" }, { "if-match": etag }),
        put(alice, id, { status: "archived" }, { "if-match": etag }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 412]);
      const winner = (await responses.find((response) => response.status === 200)!.json()) as Resource;
      expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: winner.status, version: 2 });
    }
  });

  it.each([
    ["an unknown field", { status: "read", priority: "high" }, ["body:priority"]],
    ["a bad status", { status: "done" }, ["body:status"]],
    ["no status", {}, ["body:status"]],
    ["a changed read-only field", { status: "read", title: "Renamed" }, ["body:title"]],
    ["several problems", { status: 1, createdAt: "2000-01-01T00:00:00.000Z", severity: "critical", x: 1 }, ["body:status", "body:x"]],
    ["a read-only field with a bad value", { status: "read", readAt: "soon" }, ["body:readAt"]],
    ["malformed JSON", '{"status": "read"', ["body:"]],
    ["a JSON array", "[]", ["body:"]],
    ["a JSON string", '"read"', ["body:"]],
    ["an empty body", "", ["body:"]],
  ])("answers %s with a 400 naming each field, changing nothing", async (_case, body, fields) => {
    const id = await notify(alice);
    expect((await fieldsNamed(await put(alice, id, body))).sort()).toEqual([...fields].sort());
    expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "unread", version: 1 });
  });

  it("names read-only fields that differ from the stored values", async () => {
    const id = await notify(alice);
    const response = await put(alice, id, { status: "read", createdAt: "2000-01-01T00:00:00.000Z", severity: "critical", id });
    expect((await fieldsNamed(response)).sort()).toEqual(["body:createdAt", "body:severity"]);
  });

  it("answers 415 to a body that is not JSON, and 413 over 64 KiB", async () => {
    const id = await notify(alice);
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded"]) {
      const response = await call(alice, `/${id}`, { method: "PUT", headers: { "content-type": contentType }, body: '{"status":"read"}' });
      expect((await problem(response, 415)).type).toMatch(/unsupported-media-type$/);
    }
    expect((await call(alice, `/${id}`, { method: "PUT", body: new Uint8Array([1, 2]) })).status).toBe(415);
    const large = JSON.stringify({ status: "read", title: "x".repeat(70 * 1024) });
    expect((await problem(await put(alice, id, large), 413)).type).toMatch(/payload-too-large$/);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`{"status":"read","title":"${"y".repeat(80 * 1024)}"}`));
        controller.close();
      },
    });
    const chunked = await call(alice, `/${id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "unread", version: 1 });
  });

  it("needs the notifications:write scope", async () => {
    const id = await notify(reader);
    expect((await put(reader, id, { status: "read" })).status).toBe(403);
    expect((await call(reader, `/${id}`)).status).toBe(200);
  });
});

describe("isolation", () => {
  async function notFoundShape(response: Response, id: string) {
    const body = await problem(response, 404);
    return {
      ...body,
      detail: body.detail?.replace(id, "{id}"),
      instance: body.instance.replace(id, "{id}").replace(/\/gw\/[^/]+/, "/gw/{env}"),
      requestId: "",
      traceId: "",
    };
  }

  async function unknownAnswers(who: Client, env = who.env) {
    return {
      get: await notFoundShape(await call(who, "/ntf_unknown000000000", {}, env), "ntf_unknown000000000"),
      put: await notFoundShape(
        await call(who, "/ntf_unknown000000000", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"status":"read"}' }, env),
        "ntf_unknown000000000",
      ),
    };
  }

  it("answers another client's notification exactly like an unknown one, in both directions, for every operation", async () => {
    const alices = await notify(alice, { title: "Alice's" });
    const bobs = await notify(bob, { title: "Bob's" });
    for (const [caller, owner, foreignId] of [
      [bob, alice, alices],
      [alice, bob, bobs],
    ] as const) {
      const unknown = await unknownAnswers(caller);
      expect(await notFoundShape(await call(caller, `/${foreignId}`), foreignId)).toEqual(unknown.get);
      expect(await notFoundShape(await put(caller, foreignId, { status: "read" }), foreignId)).toEqual(unknown.put);
      const listed = ((await (await call(caller, "?limit=100")).json()) as { items: Resource[] }).items.map((item) => item.id);
      expect(listed).not.toContain(foreignId);
      expect((await call(owner, `/${foreignId}`)).status).toBe(200);
    }
    expect(await db.notification.findUniqueOrThrow({ where: { id: alices } })).toMatchObject({ status: "unread", version: 1 });
  });

  it("answers the same id in another environment exactly like an unknown one, in both directions", async () => {
    const inQa = await notify(alice, { title: "QA only" });
    const inPlatform = await notify(alicePlatform, { title: "Platform only" });
    for (const [caller, foreignId] of [
      [alicePlatform, inQa],
      [alice, inPlatform],
    ] as const) {
      const unknown = await unknownAnswers(caller);
      expect(await notFoundShape(await call(caller, `/${foreignId}`), foreignId)).toEqual(unknown.get);
      expect(await notFoundShape(await put(caller, foreignId, { status: "read" }), foreignId)).toEqual(unknown.put);
      const listed = ((await (await call(caller, "?limit=100")).json()) as { items: Resource[] }).items.map((item) => item.id);
      expect(listed).not.toContain(foreignId);
    }
  });
});

describe("demo data", () => {
  it("shows the seeded notifications through the API with each demo credential", async () => {
    const demo = [...server.output().matchAll(/client\s+(\S+)\s+client id: (gci_\S+)\s+secret: (gsk_\S+)/g)];
    expect(demo.map((match) => match[1]).sort()).toEqual(["platform-dev", "sso-qa"]);
    for (const [, env, clientId, secret] of demo) {
      const token = await tokenFor(env!, clientId!, secret!);
      const response = await call({ env: env!, environmentId: "", clientId: clientId!, token }, "?limit=100");
      expect(response.status).toBe(200);
      const { items } = (await response.json()) as { items: Resource[] };
      expect(items.length).toBeGreaterThanOrEqual(24);
      expect(new Set(items.map((item) => item.status))).toEqual(new Set(["unread", "read", "archived"]));
      expect(items.filter((item) => item.status === "read").every((item) => item.readAt !== null)).toBe(true);
    }
  });
});
