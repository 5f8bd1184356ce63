// Each API's MCP server (issue 52) on both processes over one database, driven by the SDK's own
// client: tools derived from the version's document, a tool call that is the gateway call it
// stands for, and the refusals an agent meets before it has a token.
import { createServer, type Server } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { createTestDatabase } from "../../lib/database/test-databases";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAdmin } from "../support/admin-cli";
import { freePort, startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { accessToken, eventually, newCredential, openDb, registerProxyApi } from "./gateway-support";
import { signedIn } from "./portal-session";

const ENV = "sso-qa";
const cleanups: (() => Promise<unknown>)[] = [];
let full: TestServer;
let gatewayOnly: TestServer;
let db: Db;
let upstream: Server;
let client: Awaited<ReturnType<typeof newCredential>>;
let token: string;
let readOnlyToken: string;
let notificationId: string;
const upstreamCalls: { method: string; url: string; body: string; authorization: string | undefined }[] = [];

const ORDERS = {
  openapi: "3.1.0",
  info: { title: "Orders", version: "1.0.0" },
  paths: {
    "/v1/orders/{id}": {
      parameters: [{ $ref: "#/components/parameters/OrderId" }],
      get: { operationId: "getOrder", summary: "Read an order", responses: { "200": { description: "The order." } } },
      put: {
        operationId: "replace order!",
        summary: "Replace an order",
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Order" } } } },
        responses: { "200": { description: "Replaced." } },
      },
      delete: { operationId: "cancelOrder", summary: "Cancel an order", responses: { "204": { description: "Cancelled." } } },
    },
    "/v1/old-orders": { get: { operationId: "listOldOrders", summary: "List old orders", responses: { "200": { description: "Them." } } } },
    "/v1/internal": { post: { operationId: "internal", summary: "Internal", responses: { "200": { description: "Done." } } } },
  },
  components: {
    parameters: { OrderId: { name: "id", in: "path", required: true, schema: { type: "string", maxLength: 20 } } },
    schemas: { Order: { type: "object", properties: { item: { type: "string" }, quantity: { type: "integer" } }, required: ["item"] } },
  },
};

async function connect(server: TestServer, path: string, bearer?: string): Promise<Client> {
  const mcp = new Client({ name: "gatehouse-test-agent", version: "1.0.0" });
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${path}`), { requestInit: { headers } }));
  cleanups.push(() => mcp.close());
  return mcp;
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { type: string; text: string }[])[0]!.text;

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      upstreamCalls.push({ method: req.method ?? "", url: req.url ?? "", body, authorization: req.headers.authorization });
      if (req.url?.startsWith("/v1/orders/missing")) {
        res.writeHead(404, { "content-type": "application/problem+json" }).end(JSON.stringify({ title: "No such order", status: 404 }));
        return;
      }
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ method: req.method, url: req.url, body: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;

  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const port = await freePort();
  const env = { PUBLIC_URL: `http://127.0.0.1:${port}` };
  full = await startServer({ database, env, port });
  cleanups.push(() => full.stop());
  db = openDb(full);
  cleanups.push(() => db.$disconnect());
  await registerProxyApi(db, { slug: "orders", upstream: upstreamUrl, scopes: ["orders:read"], openapiDocument: JSON.stringify(ORDERS) });
  const orders = await db.api.findUniqueOrThrow({ where: { slug: "orders" }, include: { versions: true } });
  await db.apiOperationDeprecation.create({
    data: { id: newId("dep"), apiVersionId: orders.versions[0]!.id, method: "GET", path: "/v1/old-orders", deprecatedAt: new Date("2026-10-01T00:00:00Z") },
  });
  client = await newCredential(db, ENV);
  const environment = await db.environment.findUniqueOrThrow({ where: { slug: ENV } });
  [notificationId] = (await createNotifications({
    db,
    environmentId: environment.id,
    recipients: { clientIds: [client.clientId] },
    title: "Agents welcome",
  })) as [string];
  token = await accessToken(full, ENV, client);
  readOnlyToken = await accessToken(full, ENV, client, "notifications:read");
  gatewayOnly = await startServer({ database, env: { ...env, ...GATEWAY_ENV }, nodeArgs: GATEWAY_NODE_ARGS });
  cleanups.push(() => gatewayOnly.stop());
}, 180_000);

describe("the MCP server of the built-in Notifications API, on both processes", () => {
  for (const which of ["full", "gateway-only"] as const) {
    it(`lists its tools and calls one through the gateway (${which})`, async () => {
      const server = which === "full" ? full : gatewayOnly;
      const mcp = await connect(server, `/mcp/${ENV}/notifications`, token);
      expect(mcp.getServerVersion()).toMatchObject({ name: "gatehouse-notifications" });
      expect(mcp.getServerCapabilities()?.tools).toBeDefined();
      await mcp.ping();
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["getNotification", "listNotifications", "updateNotification"]);
      for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      const list = tools.find((tool) => tool.name === "listNotifications")!;
      expect(list.annotations).toMatchObject({ readOnlyHint: true });
      expect(tools.find((tool) => tool.name === "updateNotification")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      expect(JSON.stringify(tools)).not.toContain('"$ref"');

      const result = await mcp.callTool({ name: "getNotification", arguments: { id: notificationId } });
      expect(result.isError).toBeUndefined();
      expect(JSON.parse(textOf(result))).toMatchObject({ id: notificationId, title: "Agents welcome" });
      const requestId = String((result._meta as Record<string, unknown>)["gatehouse/requestId"]);
      // The request log holds the call, as the credential's.
      let row: { clientId: string | null; status: number; api: string; route: string } | null = null;
      expect(
        await eventually(
          async () =>
            (row = await db.requestLog.findFirst({ where: { requestId }, select: { clientId: true, status: true, api: true, route: true } })) !== null,
        ),
      ).toBe(true);
      expect(row).toEqual({ clientId: client.clientId, status: 200, api: "notifications", route: "/v1/notifications/{id}" });
    });
  }

  it("negotiates the newest protocol version the SDK knows", async () => {
    const response = await fetch(`${full.url}/mcp/${ENV}/notifications`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    expect(response.status).toBe(200);
    // Stateless (decision 066): no session to keep, so none is named.
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it("answers a refused call as a tool error carrying the problem: a missing scope, an unknown id", async () => {
    const mcp = await connect(full, `/mcp/${ENV}/notifications`, readOnlyToken);
    const refused = await mcp.callTool({ name: "updateNotification", arguments: { id: notificationId, body: { status: "read" } } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused))).toMatchObject({ status: 403, type: expect.stringContaining("scope-missing") });
    const missing = await mcp.callTool({ name: "getNotification", arguments: { id: "ntf_doesnotexist" } });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(textOf(missing)).status).toBeGreaterThanOrEqual(400);
    await expect(mcp.callTool({ name: "noSuchTool", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("answers 401 with the protected resource's metadata to a call without a token, and serves that metadata", async () => {
    const response = await fetch(`${gatewayOnly.url}/mcp/${ENV}/notifications`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const metadataUrl = `${full.url}/.well-known/oauth-protected-resource/mcp/${ENV}/notifications`;
    expect(response.headers.get("www-authenticate")).toContain(`resource_metadata="${metadataUrl}"`);
    expect(((await response.json()) as { requestId: string }).requestId).toBeTruthy();
    const metadata = await fetch(metadataUrl.replace(full.url, gatewayOnly.url));
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      resource: `${full.url}/mcp/${ENV}/notifications`,
      authorization_servers: [`${full.url}/gw/${ENV}`],
      scopes_supported: ["notifications:read", "notifications:write"],
      bearer_methods_supported: ["header"],
    });
    const badToken = await fetch(`${full.url}/mcp/${ENV}/notifications`, {
      method: "POST",
      headers: { authorization: "Bearer not.a.token", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get("www-authenticate")).toMatch(/error="invalid_token".*resource_metadata=/);
  });

  it("refuses what is not an MCP server, and what stateless MCP does not do", async () => {
    for (const path of [
      `/mcp/${ENV}/nosuchapi`,
      `/mcp/nosuchenv/notifications`,
      `/mcp/${ENV}/global-sso-token`,
      `/mcp/${ENV}/notifications/v9`,
      `/mcp/${ENV}`,
    ]) {
      const response = await fetch(`${full.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "{}" });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    const get = await fetch(`${full.url}/mcp/${ENV}/notifications`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const huge = await fetch(`${full.url}/mcp/${ENV}/notifications`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(2 * 1024 * 1024) } }),
    });
    expect(huge.status).toBeGreaterThanOrEqual(400);
  });
});

describe("the MCP server of a proxied API", () => {
  it("is off until enabled, then serves its document's operations, narrowed and renamed", async () => {
    const off = await fetch(`${full.url}/mcp/${ENV}/orders`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "{}" });
    expect(off.status).toBe(404);
    await db.api.update({
      where: { slug: "orders" },
      data: { mcp: { enabled: true, exclude: ["POST /v1/internal"], toolNames: { "DELETE /v1/orders/{id}": "cancel_order" } } },
    });
    // The gateway hears of the change within a second.
    expect(await eventually(async () => (await fetch(`${full.url}/.well-known/oauth-protected-resource/mcp/${ENV}/orders`)).status === 200)).toBe(true);
    const mcp = await connect(full, `/mcp/${ENV}/orders`, token);
    const names = (await mcp.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(["getOrder", "replace_order_", "cancel_order", "listOldOrders"]);
    const { tools } = await mcp.listTools();
    expect(tools.find((tool) => tool.name === "cancel_order")!.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((tool) => tool.name === "listOldOrders")!.description).toMatch(/^DEPRECATED since 2026-10-01/);
    expect(tools.find((tool) => tool.name === "replace_order_")!.inputSchema).toMatchObject({
      properties: { id: { type: "string", maxLength: 20 }, body: { type: "object", required: ["item"] } },
      required: ["id", "body"],
    });
  });

  it("calls a tool as the gateway call it stands for: the upstream gets the request, the gateway's rules apply", async () => {
    const mcp = await connect(gatewayOnly, `/mcp/${ENV}/orders/v1`, token);
    const result = await mcp.callTool({ name: "replace_order_", arguments: { id: "A-1 x", body: { item: "tea", quantity: 2 } } });
    expect(result.isError, textOf(result)).toBeUndefined();
    expect(JSON.parse(textOf(result))).toEqual({ method: "PUT", url: "/v1/orders/A-1%20x", body: { item: "tea", quantity: 2 } });
    // The gateway's own rules apply to the path a tool builds: an encoded slash is refused (decision 043).
    const slash = await mcp.callTool({ name: "getOrder", arguments: { id: "a/b" } });
    expect(slash.isError).toBe(true);
    expect(JSON.parse(textOf(slash))).toMatchObject({ status: 400, type: expect.stringContaining("malformed-path") });
    const missing = await mcp.callTool({ name: "getOrder", arguments: { id: "missing" } });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(textOf(missing))).toEqual({ title: "No such order", status: 404 });
    const lacking = await mcp.callTool({ name: "getOrder", arguments: {} });
    expect(lacking.isError).toBe(true);
    expect(textOf(lacking)).toContain('"id" is required');
  });
});

describe("an API's MCP settings, from /api/v1 and the configuration file", () => {
  const admin = (...args: string[]) => runAdmin(full.databaseUrl, ...args);
  const call = (token: string, path: string, body?: unknown) =>
    fetch(`${full.url}/api/v1${path}`, {
      method: body === undefined ? "GET" : "PUT",
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("sets them through /api/v1, audited, refusing names clients break on and operations no document declares", async () => {
    const created = await admin("token", "create", "--user", "admin@example.com", "--scopes", "admin:read admin:write", "--expires-in", "1d", "--json");
    const pat = JSON.parse(created.stdout).token as string;
    const wanted = { enabled: true, include: ["GET /v1/orders/{id}", "GET /v1/old-orders"], toolNames: { "GET /v1/orders/{id}": "read_order" } };
    const set = await call(pat, "/admin/apis/orders/mcp", wanted);
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual(wanted);
    expect(await (await call(pat, "/admin/apis/orders/mcp")).json()).toEqual(wanted);
    expect((await db.api.findUniqueOrThrow({ where: { slug: "orders" } })).mcp).toEqual(wanted);
    expect(await db.auditEvent.count({ where: { action: "api.mcp", targetId: "orders" } })).toBe(1);
    for (const [body, field] of [
      [{ enabled: true, toolNames: { "GET /v1/orders/{id}": "read order" } }, "toolNames.GET /v1/orders/{id}"],
      [{ enabled: true, toolNames: { "GET /v1/orders/{id}": "a", "GET /v1/old-orders": "a" } }, "toolNames"],
      [{ enabled: true, exclude: ["GET /v1/nothing"] }, "exclude.GET /v1/nothing"],
      [{ enabled: "yes" }, "enabled"],
      [{ enabled: true, colour: "blue" }, "colour"],
    ] as const) {
      const refused = await call(pat, "/admin/apis/orders/mcp", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(((await refused.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toContain(field);
    }
    expect((await call(pat, "/admin/apis/global-sso-token/mcp", { enabled: true })).status).toBe(400);
    expect((await call(pat, "/admin/apis/nowhere/mcp", { enabled: true })).status).toBe(404);
    expect(await db.auditEvent.count({ where: { action: "api.mcp", targetId: "orders" } })).toBe(1);
    const listed = await connect(full, `/mcp/${ENV}/orders`, token);
    let names: string[] = [];
    expect(await eventually(async () => (names = (await listed.listTools()).tools.map((tool) => tool.name)).length === 2)).toBe(true);
    expect(names).toEqual(["read_order", "listOldOrders"]);
  });

  it("exports them, applies the export with no changes, and turns the server off when a file leaves them out", async () => {
    const exported = await admin("config", "export");
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("    mcp:\n      enabled: true\n");
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-mcp-"));
    const path = join(dir, "exported.yaml");
    writeFileSync(path, exported.stdout);
    expect(await admin("config", "apply", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });
    writeFileSync(path, exported.stdout.replace(/ {4}mcp:\n( {6}.*\n)+( {8}.*\n)*/, ""));
    expect(await admin("config", "apply", "-f", path)).toMatchObject({ code: 0, stdout: "changed:\n  update api orders: mcp\n" });
    expect((await db.api.findUniqueOrThrow({ where: { slug: "orders" } })).mcp).toEqual({ enabled: false });
  });
});

describe("the portal names each MCP server", () => {
  it("lists the MCP URLs in /llms.txt and shows the AI agents tab with configuration to copy and the tools", async () => {
    const text = await (await fetch(`${full.url}/llms.txt`)).text();
    expect(text).toContain("## MCP servers");
    expect(text).toContain(`- Notifications API: ${full.url}/mcp/sso-qa/notifications (sso-qa), `);
    const page = await fetch(`${full.url}/apis/notifications?tab=agents&env=${ENV}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(">AI agents<");
    expect(html).toContain(`${full.url}/mcp/${ENV}/notifications`);
    expect(html).toContain("mcpServers");
    expect(html).toContain(".vscode/mcp.json");
    for (const name of ["listNotifications", "getNotification", "updateNotification"]) expect(html).toContain(name);
    // An API whose MCP is off has no such tab, and asking for it shows the overview.
    const overview = await (await fetch(`${full.url}/apis/global-sso-token?tab=agents`)).text();
    expect(overview).not.toContain("mcpServers");
    expect(overview).not.toContain(">AI agents<");
  });
});

describe("an API's MCP settings in the admin console", () => {
  it("saves them from the API's page, audited, answers errors by field, and refuses a developer", async () => {
    const admin = await signedIn(full, "admin@example.com", TEST_ADMIN_PASSWORD);
    const before = await db.auditEvent.count({ where: { action: "api.mcp", targetId: "orders" } });
    const wanted = { enabled: true, exclude: ["POST /v1/internal"], toolNames: { "GET /v1/old-orders": "old_orders" } };
    const saved = await admin.put("/api/portal/admin/apis/orders/mcp", wanted);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual(wanted);
    expect((await db.api.findUniqueOrThrow({ where: { slug: "orders" } })).mcp).toEqual(wanted);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "api.mcp", targetId: "orders" }, orderBy: { at: "desc" } });
    expect(audit.actorLabel).toBe("admin@example.com");

    const html = await (await admin.get("/admin/apis/orders")).text();
    expect(html).toContain("MCP server");
    expect(html).toContain("Save MCP settings");
    expect(html).toContain("old_orders");

    for (const [body, field] of [
      [{ enabled: true, include: ["PATCH /v1/orders/{id}"] }, "include.PATCH /v1/orders/{id}"],
      [{ enabled: true, toolNames: { "GET /v1/orders/{id}": "x".repeat(65) } }, "toolNames.GET /v1/orders/{id}"],
      [{ enabled: true, extra: 1 }, "extra"],
      [[wanted], ""],
    ] as const) {
      const refused = await admin.put("/api/portal/admin/apis/orders/mcp", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      const problem = (await refused.json()) as { requestId: string; errors: { field: string }[] };
      expect(problem.requestId).toEqual(expect.any(String));
      if (field) expect(problem.errors.map((error) => error.field)).toContain(field);
    }
    expect((await admin.put("/api/portal/admin/apis/nowhere/mcp", { enabled: true })).status).toBe(404);
    const developer = await signedIn(full, "developer@example.com", TEST_DEVELOPER_PASSWORD);
    expect((await developer.put("/api/portal/admin/apis/orders/mcp", { enabled: false })).status).toBe(403);
    expect((await db.api.findUniqueOrThrow({ where: { slug: "orders" } })).mcp).toEqual(wanted);
    expect(await db.auditEvent.count({ where: { action: "api.mcp", targetId: "orders" } })).toBe(before + 1);
  });
});
