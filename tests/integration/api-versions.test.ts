import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addVersion, deprecate, retire } from "../../lib/api-lifecycle/versions";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import type { Db } from "../../lib/db";
import { startServer, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb, registerProxyApi } from "./gateway-support";

const documentOf = (version: string, paths: string[]) =>
  JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Orders", version: `${version.slice(1)}.0.0` },
    paths: Object.fromEntries(paths.map((path) => [path, { get: { responses: { 200: { description: "OK" } } } }])),
  });

const DAY = 86_400_000;
let upstream: Server;
let server: TestServer;
let db: Db;
let token: string;
let clientId: string;
const sunset = new Date(Date.now() + 200 * DAY);
const deprecatedAt = new Date("2026-11-01T00:00:00.000Z");

function startUpstream(): Promise<Server> {
  const echo = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json", link: '<https://upstream.example/next>; rel="next"' });
    res.end(JSON.stringify({ path: req.url }));
  });
  return new Promise((resolve) => echo.listen(0, "127.0.0.1", () => resolve(echo)));
}

const call = (path: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }) => fetch(`${server.url}/gw/sso-qa/${path}`, { headers });

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startServer();
  db = openDb(server);
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  await registerProxyApi(db, { slug: "orders", upstream: base, openapiDocument: documentOf("v1", ["/v1/orders", "/v1/orders/{id}"]) });
  await addVersion({
    db,
    actor: CLI_ACTOR,
    slug: "orders",
    spec: { version: "v2", status: "current", openapiDocument: documentOf("v2", ["/v2/orders", "/v2/orders/{id}", "/v2/legacy"]) },
  });
  await deprecate({ db, actor: CLI_ACTOR, slug: "orders", version: "v1", deprecatedAt, sunsetAt: sunset });
  await deprecate({ db, actor: CLI_ACTOR, slug: "orders", version: "v2", operation: "GET /v2/legacy", deprecatedAt });
  await registerProxyApi(db, { slug: "stock", upstream: base, isPublic: true, openapiDocument: documentOf("v1", ["/v1/stock"]) });
  await addVersion({ db, actor: CLI_ACTOR, slug: "stock", spec: { version: "v2", status: "current", openapiDocument: documentOf("v2", ["/v2/stock"]) } });
  await deprecate({ db, actor: CLI_ACTOR, slug: "stock", version: "v1", deprecatedAt, sunsetAt: sunset });
  await registerProxyApi(db, { slug: "ledger", upstream: base, isPublic: true, openapiDocument: documentOf("v1", ["/v1/entries"]) });
  await retire({ db, actor: CLI_ACTOR, slug: "ledger", version: "v1" });
  const client = await newCredential(db, "sso-qa");
  clientId = client.clientId;
  token = await accessToken(server, "sso-qa", client);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe("versions side by side at the gateway", () => {
  it("routes by the version segment, forwards the path unchanged and logs the version's route template", async () => {
    const [v1, v2] = [await call("orders/v1/orders/42"), await call("orders/v2/orders/42")];
    expect([v1.status, v2.status]).toEqual([200, 200]);
    expect(await v1.json()).toEqual({ path: "/v1/orders/42" });
    expect(await v2.json()).toEqual({ path: "/v2/orders/42" });
    const routes = async () => (await db.requestLog.findMany({ where: { clientId, api: "orders" }, select: { route: true } })).map((row) => row.route).sort();
    expect(await eventually(async () => (await routes()).length === 2)).toBe(true);
    expect(await routes()).toEqual(["/v1/orders/{id}", "/v2/orders/{id}"]);
  });
});

describe("deprecation and sunset headers", () => {
  it("announces a deprecated version on every answer, in the exact formats, keeping the upstream's own Link", async () => {
    const response = await call("orders/v1/orders/42");
    expect(response.status).toBe(200);
    expect(response.headers.get("deprecation")).toBe(`@${deprecatedAt.getTime() / 1000}`);
    expect(response.headers.get("sunset")).toBe(sunset.toUTCString());
    expect(response.headers.get("sunset")).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    const page = `${server.url}/apis/orders?version=v1`;
    expect(response.headers.get("link")).toBe(`<https://upstream.example/next>; rel="next", <${page}>; rel="deprecation", <${page}>; rel="sunset"`);
  });

  it("announces it on the gateway's own refusals for that version too", async () => {
    const response = await call("orders/v1/orders/42", {});
    expect(response.status).toBe(401);
    expect(response.headers.get("deprecation")).toBe(`@${deprecatedAt.getTime() / 1000}`);
    expect(response.headers.get("link")).toContain('rel="deprecation"');
  });

  it("announces a deprecated operation without a sunset: Deprecation and one Link, no Sunset", async () => {
    const response = await call("orders/v2/legacy");
    expect(response.status).toBe(200);
    expect(response.headers.get("deprecation")).toBe(`@${deprecatedAt.getTime() / 1000}`);
    expect(response.headers.get("sunset")).toBeNull();
    expect(response.headers.get("link")).toBe(`<https://upstream.example/next>; rel="next", <${server.url}/apis/orders?version=v2>; rel="deprecation"`);
  });

  it("sends none of them for an operation that is not deprecated", async () => {
    const response = await call("orders/v2/orders/42");
    expect(response.status).toBe(200);
    expect(response.headers.get("deprecation")).toBeNull();
    expect(response.headers.get("sunset")).toBeNull();
    expect(response.headers.get("link")).toBe('<https://upstream.example/next>; rel="next"');
  });
});

describe("after the sunset", () => {
  it("answers 410 api-version-retired naming the successor once the sunset has passed", async () => {
    const before = await call("stock/v1/stock", {});
    expect(before.status).toBe(200);
    expect(before.headers.get("sunset")).toBe(sunset.toUTCString());
    await deprecate({ db, actor: CLI_ACTOR, slug: "stock", version: "v1", deprecatedAt, sunsetAt: new Date(Date.now() - 1_000) });
    expect(await eventually(async () => (await call("stock/v1/stock", {})).status === 410)).toBe(true);
    const after = await call("stock/v1/stock", {});
    expect(after.headers.get("content-type")).toBe("application/problem+json");
    const body = (await after.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: `${server.url}/problems/api-version-retired`,
      status: 410,
      successor: "v2",
      successorUrl: `${server.url}/apis/stock?version=v2`,
    });
    expect(body.detail).toContain('Version v1 of "stock" is retired. Its successor is v2');
    expect((await call("stock/v2/stock", {})).status).toBe(200);
  });

  it("answers 410 for a retired version at once, with no successor when there is none", async () => {
    const response = await call("ledger/v1/entries", {});
    expect(response.status).toBe(410);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 410, detail: 'Version v1 of "ledger" is retired.' });
    expect(body.successor).toBeUndefined();
  });
});

describe("telling the clients when something they call is deprecated", () => {
  it("sends the client that called an operation a notification when it is deprecated, linking the API's page", async () => {
    // The first test's call to /v2/orders/42 is in the request log by now (it waited for it).
    const result = await deprecate({ db, actor: CLI_ACTOR, slug: "orders", version: "v2", operation: "GET /v2/orders/{id}", sunsetAt: sunset });
    expect(result.notified).toBe(1);
    const notices = await db.notification.findMany({ where: { clientId, title: { contains: "GET /v2/orders/{id}" } } });
    expect(notices).toHaveLength(1);
    expect(notices[0]!.link).toMatch(/\/apis\/orders$/);
    expect(notices[0]!.body).toMatch(/GET \/v2\/orders\/\{id\}: \d+ calls?, last at/);
  });
});

describe("setting a sunset on what is already deprecated", () => {
  it("keeps the version's and the operation's deprecation date, in the database and in the Deprecation header", async () => {
    const later = new Date(Date.now() + 300 * DAY);
    const version = await deprecate({ db, actor: CLI_ACTOR, slug: "orders", version: "v1", sunsetAt: later });
    const operation = await deprecate({ db, actor: CLI_ACTOR, slug: "orders", version: "v2", operation: "GET /v2/legacy", sunsetAt: later });
    expect([version.deprecatedAt, operation.deprecatedAt]).toEqual([deprecatedAt, deprecatedAt]);
    const row = await db.apiVersion.findFirstOrThrow({ where: { api: { slug: "orders" }, version: "v1" } });
    expect(row.deprecatedAt).toEqual(deprecatedAt);
    expect(await eventually(async () => (await call("orders/v2/legacy")).headers.get("sunset") === later.toUTCString())).toBe(true);
    for (const path of ["orders/v1/orders/42", "orders/v2/legacy"]) {
      expect((await call(path)).headers.get("deprecation")).toBe(`@${deprecatedAt.getTime() / 1000}`);
    }
  });
});

describe("a built-in API's lifecycle, decided once, before the caller is checked", () => {
  const notifications = (path: string, init: RequestInit = {}) => fetch(`${server.url}/gw/sso-qa/notifications${path}`, init);
  const page = () => `${server.url}/apis/notifications?version=v1`;

  it("announces a deprecated operation on the refusal of a call without a token, and answers 410 past its sunset before any token check", async () => {
    await deprecate({ db, actor: CLI_ACTOR, slug: "notifications", version: "v1", operation: "GET /v1/notifications", deprecatedAt });
    await deprecate({
      db,
      actor: CLI_ACTOR,
      slug: "notifications",
      version: "v1",
      operation: "PUT /v1/notifications/{id}",
      deprecatedAt,
      sunsetAt: new Date(Date.now() - 1_000),
    });
    const retire = () => notifications("/v1/notifications/ntf_anything", { method: "PUT", body: "{}" });
    // The later of the two changes: once it shows, a refresh has carried both.
    expect(await eventually(async () => (await retire()).status === 410)).toBe(true);

    const unauthenticated = await notifications("/v1/notifications");
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("deprecation")).toBe(`@${deprecatedAt.getTime() / 1000}`);
    expect(unauthenticated.headers.get("link")).toBe(`<${page()}>; rel="deprecation"`);
    expect(unauthenticated.headers.get("sunset")).toBeNull();

    const gone = await retire();
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({
      type: `${server.url}/problems/api-version-retired`,
      detail: 'PUT /v1/notifications/{id} of "notifications" v1 is retired.',
    });
    expect(gone.headers.get("sunset")).not.toBeNull();

    const untouched = await notifications("/v1/notifications/ntf_anything");
    expect(untouched.status).toBe(401);
    expect(untouched.headers.get("deprecation")).toBeNull();
  });

  it("answers a path it does not serve only to a caller it has checked: 401 without a token, 404 or 405 with one, recorded as (unmatched)", async () => {
    const reader = await newCredential(db, "sso-qa", { scopes: ["notifications:read"] });
    const headers = { authorization: `Bearer ${await accessToken(server, "sso-qa", reader, "notifications:read")}` };
    expect((await notifications("/v1/nowhere")).status).toBe(401);
    expect((await notifications("/v1/nowhere", { headers })).status).toBe(404);
    const otherMethod = await notifications("/v1/notifications", { method: "DELETE", headers });
    expect(otherMethod.status).toBe(405);
    expect(otherMethod.headers.get("allow")).toBe("GET, HEAD");
    const unmatched = () => db.requestLog.count({ where: { api: "notifications", status: 401, route: "(unmatched)" } });
    expect(await eventually(async () => (await unmatched()) >= 2)).toBe(true);
  });
});
