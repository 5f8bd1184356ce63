// Each API's MCP server (issue 52) on both processes over one database, driven by the SDK's own
// client: tools derived from the version's document, a tool call that is the gateway call it
// stands for, and the refusals an agent meets before it has a token; then OAuth for agents:
// discovery from the 401, registration, the portal's consent, PKCE, refresh and revocation.
import { createServer, type Server } from "node:http";
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  extractResourceMetadataUrl,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication, revokeCredential } from "../../lib/credentials/credentials";
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
import { accessToken, decodeJwtPart, eventually, newCredential, openDb, registerProxyApi, SERVER_AUTH_SECRET } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

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
  // Agents' client ID metadata documents are served from loopback here, which the outbound rule allows only with OUTBOUND_ALLOW_PRIVATE.
  full = await startServer({ database, env: { ...env, OUTBOUND_ALLOW_PRIVATE: "1" }, port });
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

  it("negotiates the newest protocol version the SDK knows, and starts a session every process honours for its client", async () => {
    const post = (server: TestServer, body: unknown, headers: Record<string, string> = {}, bearer = token) =>
      fetch(`${server.url}/mcp/${ENV}/notifications`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(body),
      });
    const response = await post(full, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    // A signed session (decision 069): any process answers it, with nothing stored.
    const session = response.headers.get("mcp-session-id")!;
    expect(session).toMatch(/^[\x21-\x7e]+$/);
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    for (const server of [full, gatewayOnly]) {
      const listed = await post(server, list, { "mcp-session-id": session });
      expect(listed.status).toBe(200);
      expect(listed.headers.get("mcp-session-id")).toBeNull();
    }
    const other = await newCredential(db, ENV);
    const refusals = [
      await post(full, list, { "mcp-session-id": `${session.slice(0, -2)}xx` }),
      await post(gatewayOnly, list, { "mcp-session-id": "made-up" }),
      await post(full, list, { "mcp-session-id": session }, await accessToken(full, ENV, other)),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(404);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(await refused.json()).toMatchObject({ detail: expect.stringContaining("send initialize again"), requestId: expect.any(String) });
    }
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

  it("refuses a browser's request from another origin with 403, on both processes, and serves its own origin", async () => {
    for (const server of [full, gatewayOnly]) {
      const from = (origin: string) =>
        fetch(`${server.url}/mcp/${ENV}/notifications`, {
          method: "POST",
          headers: { origin, authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
      for (const origin of ["https://evil.example", "null", `http://localhost:${new URL(full.url).port}`]) {
        const refused = await from(origin);
        expect(refused.status, origin).toBe(403);
        expect(refused.headers.get("content-type")).toBe("application/problem+json");
        expect(await refused.json()).toMatchObject({ type: expect.stringContaining("mcp-origin-not-allowed"), requestId: expect.any(String) });
      }
      expect((await from(new URL(full.url).origin)).status).toBe(200);
      // Refused before the path is looked up: another spelling of the path, or none served there, is refused the same.
      const foreign = (path: string) => fetch(`${server.url}${path}`, { method: "POST", headers: { origin: "https://evil.example" }, body: "{}" });
      for (const path of [`/mcp/${ENV}/nosuchapi`, `/mcp/${ENV}/%6Eotifications`]) {
        const response = await foreign(path);
        expect(response.status, path).toBe(403);
        expect(await response.json()).toMatchObject({ type: expect.stringContaining("mcp-origin-not-allowed"), requestId: expect.any(String) });
      }
      // A path with an empty segment is refused by the server's front door, before any route.
      const unusual = await foreign(`/mcp/${ENV}//notifications/`);
      expect(unusual.status).toBe(400);
      expect(unusual.headers.get("content-type")).toBe("application/problem+json");
      expect(await unusual.json()).toMatchObject({ requestId: expect.any(String) });
    }
  });

  it("refuses what is not an MCP server, and what a server without messages of its own does not do", async () => {
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
    expect(huge.status).toBe(413);
    expect(huge.headers.get("content-type")).toBe("application/problem+json");
    expect(await huge.json()).toMatchObject({ type: expect.stringContaining("payload-too-large"), requestId: expect.any(String) });
  });

  it("answers malformed params with JSON-RPC's -32602 Invalid params, naming the field, on both processes", async () => {
    const rpc = async (server: TestServer, method: string, params: unknown, paramsText = JSON.stringify(params)) => {
      const response = await fetch(`${server.url}/mcp/${ENV}/notifications`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: `{"jsonrpc":"2.0","id":7,"method":${JSON.stringify(method)},"params":${paramsText}}`,
      });
      return { status: response.status, body: (await response.json()) as { id: number; error?: { code: number; message: string }; result?: unknown } };
    };
    for (const server of [full, gatewayOnly]) {
      for (const [method, params, field] of [
        ["tools/call", { arguments: {} }, "name"],
        ["tools/call", { name: "getNotification", arguments: "id=1" }, "arguments"],
        ["tools/list", { cursor: 100 }, "cursor"],
        ["initialize", { capabilities: {} }, "protocolVersion"],
      ] as const) {
        const answer = await rpc(server, method, params);
        expect(answer.status, `${method} ${field}`).toBe(200);
        expect(answer.body.id).toBe(7);
        expect(answer.body.error?.code, `${method} ${field}: ${answer.body.error?.message}`).toBe(-32602);
        expect(answer.body.error?.message).toContain(field);
      }
      // Arguments nested past the stack that writes them out as JSON again: the tool's error names the argument.
      const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
      const nested = await rpc(server, "tools/call", undefined, `{"name":"updateNotification","arguments":{"id":"${notificationId}","body":${deep}}}`);
      expect(nested.status).toBe(200);
      expect(nested.body).toMatchObject({
        id: 7,
        result: { isError: true, content: [{ type: "text", text: 'The argument "body" is nested too deeply to send as JSON.' }] },
      });
    }
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
    // Each process hears of the change within a second; the next test calls the gateway-only one.
    for (const server of [full, gatewayOnly]) {
      const metadata = `${server.url}/.well-known/oauth-protected-resource/mcp/${ENV}/orders`;
      expect(await eventually(async () => (await fetch(metadata)).status === 200), server.url).toBe(true);
    }
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

describe("OAuth for agents: an agent that knows only the MCP URL signs in as a developer's credential", () => {
  const REDIRECT = "http://127.0.0.1:8976/callback";
  const ordersPath = `/mcp/${ENV}/orders`;
  let developer: PortalClient;
  let ownerId: string;
  let mine: Awaited<ReturnType<typeof newCredential>>;
  let server: Awaited<ReturnType<typeof discover>>;

  const mcpCall = (path: string, bearer?: string) =>
    fetch(`${full.url}${path}`, {
      method: "POST",
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });

  /** What the SDK's client does on a 401: the resource's metadata, then its authorization server's. */
  async function discover(path: string) {
    const refused = await mcpCall(path);
    expect(refused.status).toBe(401);
    const resourceMetadataUrl = extractResourceMetadataUrl(refused);
    expect(resourceMetadataUrl).toBeDefined();
    const resource = await discoverOAuthProtectedResourceMetadata(new URL(`${full.url}${path}`), { resourceMetadataUrl });
    const issuer = String(resource.authorization_servers![0]);
    const metadata = (await discoverAuthorizationServerMetadata(issuer))!;
    return { resource: new URL(resource.resource), issuer, metadata };
  }

  const register = (name: string, redirect = REDIRECT) =>
    registerClient(server.issuer, {
      metadata: server.metadata,
      clientMetadata: {
        client_name: name,
        redirect_uris: [redirect],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
      },
    });

  /** A registered agent, or one known by its client ID metadata document. */
  type Agent = { client_id: string; redirect_uris: string[] };

  /** The consent page as the developer sees it, and the code its approval sends back. */
  async function authorize(agent: Agent, options: { resource?: URL; as?: PortalClient; credential?: string } = {}) {
    const { authorizationUrl, codeVerifier } = await startAuthorization(server.issuer, {
      metadata: server.metadata,
      clientInformation: agent,
      redirectUrl: REDIRECT,
      state: "state-123",
      resource: options.resource ?? server.resource,
    });
    const page = await (options.as ?? developer).get(`${authorizationUrl.pathname}${authorizationUrl.search}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const answer = await (options.as ?? developer).form("/api/portal/agents/consent", {
      ticket,
      decision: "approve",
      credential: options.credential ?? mine.clientId,
    });
    expect(answer.status, await answer.clone().text()).toBe(303);
    const location = new URL(answer.headers.get("location")!);
    return { html, ticket, codeVerifier, location, code: location.searchParams.get("code")! };
  }

  const exchange = (agent: Agent, code: string, codeVerifier: string, resource = server.resource) =>
    exchangeAuthorization(server.issuer, {
      metadata: server.metadata,
      clientInformation: agent,
      authorizationCode: code,
      codeVerifier,
      redirectUri: REDIRECT,
      resource,
    });

  const refresh = (agent: Agent, refreshToken: string) =>
    refreshAuthorization(server.issuer, { metadata: server.metadata, clientInformation: agent, refreshToken, resource: server.resource });

  const tokenError = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => undefined,
      (thrown: Error & { errorCode?: string }) => thrown,
    );
    expect(error).toBeDefined();
    return error!.errorCode ?? error!.message;
  };

  beforeAll(async () => {
    ownerId = (await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } })).id;
    const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId, name: "Agent host" });
    const { credential, secret } = await createCredential({
      db,
      actor: CLI_ACTOR,
      applicationId: application.id,
      envSlug: ENV,
      authSecret: SERVER_AUTH_SECRET,
    });
    mine = { clientId: credential.clientId, clientSecret: secret!.clientSecret, credentialId: credential.id, applicationId: application.id };
    developer = await signedIn(full, "developer@example.com", TEST_DEVELOPER_PASSWORD);
    await db.api.update({ where: { slug: "orders" }, data: { mcp: { enabled: true } } });
    expect(await eventually(async () => (await mcpCall(ordersPath)).status === 401)).toBe(true);
    server = await discover(ordersPath);
  });

  it("discovers, registers, is approved on the consent page, exchanges the code with PKCE, lists and calls tools, and refreshes", async () => {
    expect(server.resource.href).toBe(`${full.url}${ordersPath}`);
    expect(server.metadata).toMatchObject({
      issuer: `${full.url}/gw/${ENV}`,
      authorization_endpoint: `${full.url}/oauth/${ENV}/authorize`,
      registration_endpoint: `${full.url}/gw/${ENV}/oauth2/register`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      grant_types_supported: expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials"]),
      token_endpoint_auth_methods_supported: expect.arrayContaining(["none"]),
    });
    const agent = await register("Helpful <b>agent</b>");
    expect(agent.client_id).toMatch(/^agc_/);
    expect(agent).toMatchObject({ token_endpoint_auth_method: "none", redirect_uris: [REDIRECT] });

    const { html, location, code, codeVerifier } = await authorize(agent);
    expect(html).toContain("Helpful &lt;b&gt;agent&lt;/b&gt;");
    expect(html).toContain("unverified");
    expect(html).toContain("<strong>Proxied orders</strong>");
    expect(html).toContain("orders:read");
    expect(html).toContain(mine.clientId);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get("state")).toBe("state-123");
    expect(location.searchParams.get("iss")).toBe(server.issuer);
    expect(await db.agentAuthorizationCode.count({ where: { hash: code } })).toBe(0);

    const tokens = await exchange(agent, code, codeVerifier);
    expect(tokens).toMatchObject({ token_type: "Bearer", scope: "orders:read", refresh_token: expect.stringMatching(/^grt_/) });
    expect(decodeJwtPart(tokens.access_token, 1)).toMatchObject({ aud: server.resource.href, client_id: mine.clientId, sub: mine.clientId });
    expect(await db.agentRefreshToken.count({ where: { hash: tokens.refresh_token! } })).toBe(0);

    const mcp = await connect(full, ordersPath, tokens.access_token);
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain("getOrder");
    const before = upstreamCalls.length;
    const result = await mcp.callTool({ name: "getOrder", arguments: { id: "agent-1" } });
    expect(result.isError, textOf(result)).toBeUndefined();
    expect(JSON.parse(textOf(result))).toMatchObject({ method: "GET", url: "/v1/orders/agent-1" });
    expect(upstreamCalls.length).toBe(before + 1);
    // The call is the chosen credential's: the request log names it.
    const requestId = String((result._meta as Record<string, unknown>)["gatehouse/requestId"]);
    expect(await eventually(async () => (await db.requestLog.findFirst({ where: { requestId, clientId: mine.clientId } })) !== null)).toBe(true);

    const refreshed = await refresh(agent, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpCall(ordersPath, refreshed.access_token)).status).toBe(200);
    // Reusing the spent refresh token revokes the whole family: the new refresh token and the access tokens.
    expect(await tokenError(refresh(agent, tokens.refresh_token!))).toBe("invalid_grant");
    expect(await tokenError(refresh(agent, refreshed.refresh_token!))).toBe("invalid_grant");
    expect(await eventually(async () => (await mcpCall(ordersPath, refreshed.access_token)).status === 401)).toBe(true);
    expect(await eventually(async () => (await mcpCall(ordersPath, tokens.access_token)).status === 401)).toBe(true);
  });

  it("registers, exchanges, refreshes and serves the agent on the gateway-only process too", async () => {
    const registered = await fetch(`${gatewayOnly.url}/gw/${ENV}/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Gateway-only agent", redirect_uris: [REDIRECT] }),
    });
    expect(registered.status).toBe(201);
    const agent = (await registered.json()) as Awaited<ReturnType<typeof register>>;
    const { code, codeVerifier } = await authorize(agent);
    const grant = (fields: Record<string, string>) =>
      fetch(`${gatewayOnly.url}/gw/${ENV}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: agent.client_id, ...fields }),
      });
    const exchanged = await grant({ grant_type: "authorization_code", code, code_verifier: codeVerifier, redirect_uri: REDIRECT });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
    const refreshed = await grant({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, scope: "orders:read" });
    expect(refreshed.status).toBe(200);
    const widened = await grant({
      grant_type: "refresh_token",
      refresh_token: ((await refreshed.json()) as { refresh_token: string }).refresh_token,
      scope: "notifications:read",
    });
    expect(await widened.json()).toMatchObject({ error: "invalid_scope" });
    const mcp = await connect(gatewayOnly, ordersPath, tokens.access_token);
    expect((await mcp.callTool({ name: "getOrder", arguments: { id: "gateway-only" } })).isError).toBeUndefined();
  });

  it("revokes an agent from Settings → Connected agents, which ends its refresh and access tokens", async () => {
    const agent = await register("Revocable agent");
    const { code, codeVerifier } = await authorize(agent);
    const tokens = await exchange(agent, code, codeVerifier);
    expect((await mcpCall(ordersPath, tokens.access_token)).status).toBe(200);
    const page = await (await developer.get("/settings/agents")).text();
    expect(page).toContain("Revocable agent");
    expect(page).toContain("Connected agents");
    const consent = await db.agentConsent.findFirstOrThrow({ where: { agent: { name: "Revocable agent" } } });
    expect(consent.lastUsedAt).not.toBeNull();
    const admin = await signedIn(full, "admin@example.com", TEST_ADMIN_PASSWORD);
    expect((await admin.post(`/api/portal/agents/${consent.id}/revoke`, {})).status).toBe(404);
    expect((await developer.post(`/api/portal/agents/nope/revoke`, {})).status).toBe(404);
    const revoked = await developer.post(`/api/portal/agents/${consent.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(await db.auditEvent.count({ where: { action: "agent-consent.revoke", targetId: consent.id } })).toBe(1);
    expect(await tokenError(refresh(agent, tokens.refresh_token!))).toBe("invalid_grant");
    expect(await eventually(async () => (await mcpCall(ordersPath, tokens.access_token)).status === 401)).toBe(true);
    expect(await (await developer.get("/settings/agents")).text()).not.toContain("Revocable agent");
  });

  it("marks a consent used by the agent's calls, the token naming its consent", async () => {
    const agent = await register("Busy agent");
    const { code, codeVerifier } = await authorize(agent);
    const tokens = await exchange(agent, code, codeVerifier);
    const consentId = String(decodeJwtPart(tokens.access_token, 1).gh_consent);
    expect(await db.agentConsent.count({ where: { id: consentId, agent: { name: "Busy agent" } } })).toBe(1);
    const long = new Date("2026-01-01T00:00:00Z");
    await db.agentConsent.update({ where: { id: consentId }, data: { lastUsedAt: long } });
    const mcp = await connect(full, ordersPath, tokens.access_token);
    expect((await mcp.callTool({ name: "getOrder", arguments: { id: "busy" } })).isError).toBeUndefined();
    const usedAt = async () => (await db.agentConsent.findUniqueOrThrow({ where: { id: consentId } })).lastUsedAt!;
    expect(await eventually(async () => (await usedAt()) > long)).toBe(true);
    // An ordinary token of the credential carries no consent.
    expect(decodeJwtPart(token, 1).gh_consent).toBeUndefined();
  });

  it("revokes an agent's grant at the revocation endpoint with its refresh token and client_id alone; another agent's changes nothing", async () => {
    const revoke = (fields: Record<string, string>) =>
      fetch(`${server.issuer}/oauth2/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    const agent = await register("Self-revoking agent");
    const other = await register("Meddling agent");
    const { code, codeVerifier } = await authorize(agent);
    const tokens = await exchange(agent, code, codeVerifier);
    const foreign = await revoke({ token: tokens.refresh_token!, token_type_hint: "refresh_token", client_id: other.client_id });
    expect(foreign.status).toBe(200);
    const foreignAccess = await revoke({ token: tokens.access_token, client_id: other.client_id });
    expect(foreignAccess.status).toBe(200);
    expect((await mcpCall(ordersPath, tokens.access_token)).status).toBe(200);
    const refreshed = await refresh(agent, tokens.refresh_token!);
    const unknownClient = await revoke({ token: refreshed.refresh_token!, client_id: "agc_nobody" });
    expect(unknownClient.status).toBe(401);
    expect(await unknownClient.json()).toMatchObject({ error: "invalid_client" });
    expect((await revoke({ token: "grt_unknown", client_id: agent.client_id })).status).toBe(200);
    expect((await revoke({ token: refreshed.refresh_token!, client_id: agent.client_id, token_type_hint: "bogus" })).status).toBe(400);
    expect((await mcpCall(ordersPath, refreshed.access_token)).status).toBe(200);

    const revoked = await revoke({ token: refreshed.refresh_token!, client_id: agent.client_id });
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get("cache-control")).toBe("no-store");
    expect(await tokenError(refresh(agent, refreshed.refresh_token!))).toBe("invalid_grant");
    expect(await eventually(async () => (await mcpCall(ordersPath, refreshed.access_token)).status === 401)).toBe(true);
    const consentId = String(decodeJwtPart(refreshed.access_token, 1).gh_consent);
    expect((await db.agentConsent.findUniqueOrThrow({ where: { id: consentId } })).revokedAt).not.toBeNull();

    // An access token alone is revoked by its agent, and the grant lives on.
    const again = await authorize(agent);
    const second = await exchange(agent, again.code, again.codeVerifier);
    expect((await revoke({ token: second.access_token, client_id: agent.client_id })).status).toBe(200);
    expect(await eventually(async () => (await mcpCall(ordersPath, second.access_token)).status === 401)).toBe(true);
    expect((await mcpCall(ordersPath, (await refresh(agent, second.refresh_token!)).access_token)).status).toBe(200);
  });

  it("refuses a wrong verifier, a code used twice, another client's code and a redirect URI changed at the token endpoint", async () => {
    const agent = await register("Careful agent");
    const first = await authorize(agent);
    expect(await tokenError(exchange(agent, first.code, "x".repeat(43)))).toBe("invalid_grant");
    const second = await authorize(agent);
    const other = await register("Other agent");
    expect(await tokenError(exchange(other, second.code, second.codeVerifier))).toBe("invalid_grant");
    const third = await authorize(agent);
    const changed = await fetch(server.metadata.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: third.code,
        code_verifier: third.codeVerifier,
        redirect_uri: "http://127.0.0.1:8976/other",
        client_id: agent.client_id,
      }),
    });
    expect(changed.status).toBe(400);
    expect(await changed.json()).toMatchObject({ error: "invalid_grant" });
    const fourth = await authorize(agent);
    const tokens = await exchange(agent, fourth.code, fourth.codeVerifier);
    expect(await tokenError(exchange(agent, fourth.code, fourth.codeVerifier))).toBe("invalid_grant");
    // A code used twice revokes what it was exchanged for.
    expect(await tokenError(refresh(agent, tokens.refresh_token!))).toBe("invalid_grant");
    const unknownClient = await fetch(server.metadata.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "grt_x", client_id: "agc_nobody" }),
    });
    expect(unknownClient.status).toBe(401);
    expect(await unknownClient.json()).toMatchObject({ error: "invalid_client" });
  });

  it("ends the agent's access when the credential it acts as is revoked", async () => {
    const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId, name: "Short-lived host" });
    const { credential } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: ENV, authSecret: SERVER_AUTH_SECRET });
    const agent = await register("Agent of a revoked credential");
    const { code, codeVerifier } = await authorize(agent, { credential: credential.clientId });
    const tokens = await exchange(agent, code, codeVerifier);
    expect(decodeJwtPart(tokens.access_token, 1).client_id).toBe(credential.clientId);
    expect((await mcpCall(ordersPath, tokens.access_token)).status).toBe(200);
    await revokeCredential({ db, actor: CLI_ACTOR, clientId: credential.clientId });
    expect(await eventually(async () => (await mcpCall(ordersPath, tokens.access_token)).status === 401)).toBe(true);
    expect(await tokenError(refresh(agent, tokens.refresh_token!))).toBe("invalid_grant");
  });

  it("offers no credential held to DPoP-bound tokens, and stops refreshing for one that becomes so", async () => {
    const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId, name: "DPoP host" });
    const { credential } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: ENV, authSecret: SERVER_AUTH_SECRET });
    await db.credential.update({ where: { id: credential.id }, data: { requireDpop: true } });
    const agent = await register("Bearer agent");
    const { html, code, codeVerifier } = await authorize(agent);
    expect(html).not.toContain(credential.clientId);
    const tokens = await exchange(agent, code, codeVerifier);
    await db.credential.update({ where: { id: mine.credentialId }, data: { requireDpop: true } });
    try {
      expect(await tokenError(refresh(agent, tokens.refresh_token!))).toBe("invalid_grant");
    } finally {
      await db.credential.update({ where: { id: mine.credentialId }, data: { requireDpop: false } });
    }
  });

  it("refuses a token issued for another MCP server, at that server and at the gateway; ordinary tokens still work there", async () => {
    const agent = await register("Scoped agent");
    const { code, codeVerifier } = await authorize(agent);
    const tokens = await exchange(agent, code, codeVerifier);
    const elsewhere = await mcpCall(`/mcp/${ENV}/notifications`, tokens.access_token);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get("www-authenticate")).toMatch(/error="invalid_token".*resource_metadata=/);
    expect(((await elsewhere.json()) as { type: string; requestId: string }).type).toContain("token-invalid");
    const direct = await fetch(`${full.url}/gw/${ENV}/orders/v1/orders/agent-2`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(direct.status).toBe(401);
    expect((await mcpCall(`${ordersPath}/v1`, tokens.access_token)).status).toBe(401);
    expect((await mcpCall(`/mcp/${ENV}/notifications`, token)).status).toBe(200);
    expect((await fetch(`${full.url}/gw/${ENV}/orders/v1/orders/agent-3`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // A resource the grant is not for is refused at the token endpoint too (RFC 8707).
    const again = await authorize(agent);
    expect(await tokenError(exchange(agent, again.code, again.codeVerifier, new URL(`${full.url}/mcp/${ENV}/notifications`)))).toBe("invalid_target");
  });

  it("refuses authorization requests without PKCE S256, for other grants, resources or redirect URIs, and forged or foreign consent", async () => {
    const agent = await register("Strict agent");
    const base = {
      client_id: agent.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      resource: server.resource.href,
      state: "s",
    };
    const ask = (change: Record<string, string | undefined>) => {
      const query = Object.fromEntries(Object.entries({ ...base, ...change }).filter(([, value]) => value !== undefined)) as Record<string, string>;
      return developer.get(`/oauth/${ENV}/authorize?${new URLSearchParams(query)}`);
    };
    for (const [change, error] of [
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: undefined }, "invalid_request"],
      [{ code_challenge_method: undefined }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ resource: `${full.url}/mcp/nosuchenv/orders` }, "invalid_target"],
      [{ resource: `${full.url}/mcp/${ENV}/global-sso-token` }, "invalid_target"],
      [{ resource: undefined }, "invalid_target"],
      [{ scope: "admin:all" }, "invalid_scope"],
    ] as const) {
      const answer = await ask(change);
      expect(answer.status, JSON.stringify(change)).toBe(307);
      const location = new URL(answer.headers.get("location")!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get("error"), JSON.stringify(change)).toBe(error);
      expect(location.searchParams.get("state")).toBe("s");
    }
    // An unregistered redirect URI or client is never redirected to.
    for (const change of [
      { redirect_uri: "https://evil.example/callback" },
      { client_id: "agc_nobody" },
      { redirect_uri: "http://127.0.0.1:8976/other" },
      { state: "x".repeat(3000) },
    ]) {
      const answer = await ask(change);
      expect(answer.status, JSON.stringify(change)).toBe(200);
      expect(answer.headers.get("location")).toBeNull();
      expect(await answer.text()).toContain("This agent cannot sign in");
    }
    // A loopback redirect URI may change its port (RFC 8252 §7.3).
    const port = await ask({ redirect_uri: "http://127.0.0.1:9999/callback" });
    expect(port.status).toBe(200);
    expect(await port.text()).toContain("Strict agent");

    const { ticket } = await authorize(agent);
    const deny = await developer.form("/api/portal/agents/consent", { ticket, decision: "deny" });
    expect(deny.status).toBe(303);
    expect(new URL(deny.headers.get("location")!).searchParams.get("error")).toBe("access_denied");
    const admin = await signedIn(full, "admin@example.com", TEST_ADMIN_PASSWORD);
    for (const [who, fields] of [
      [admin, { ticket, decision: "approve", credential: mine.clientId }],
      [developer, { ticket: `${ticket}x`, decision: "approve", credential: mine.clientId }],
      [developer, { ticket, decision: "approve", credential: client.clientId }],
      [developer, { ticket, decision: "maybe" }],
    ] as const) {
      const refused = await who.form("/api/portal/agents/consent", fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(((await refused.json()) as { requestId: string }).requestId).toEqual(expect.any(String));
    }
    const crossSite = await fetch(`${full.url}/api/portal/agents/consent`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ticket, decision: "approve" }),
    });
    expect(crossSite.status).toBe(403);
  });

  it("signs in an agent known by its client ID metadata document, and refuses documents that do not describe it", async () => {
    const fetched: string[] = [];
    const documents = createServer((req, res) => {
      fetched.push(req.url ?? "");
      const self = `${documentsBase}${req.url}`;
      const document = { client_id: self, client_name: "Document agent", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" };
      res.setHeader("content-type", "application/json");
      if (req.url === "/other.json") res.end(JSON.stringify({ ...document, client_id: `${documentsBase}/agent.json` }));
      else if (req.url === "/unlisted.json") res.end(JSON.stringify({ ...document, redirect_uris: ["https://agent.example/callback"] }));
      else if (req.url === "/huge.json") res.end(JSON.stringify({ ...document, padding: "x".repeat(6000) }));
      else if (req.url === "/not-json") res.end("<html>agent</html>");
      else res.end(JSON.stringify(document));
    });
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => documents.close(resolve)));
    const documentsBase = `http://127.0.0.1:${(documents.address() as { port: number }).port}`;
    expect(server.metadata).toMatchObject({ client_id_metadata_document_supported: true });

    const agent = { client_id: `${documentsBase}/agent.json`, redirect_uris: [REDIRECT] };
    const { html, code, codeVerifier } = await authorize(agent);
    expect(html).toContain("Document agent");
    expect(html).toContain("unverified");
    expect(html).toContain(new URL(documentsBase).host);
    const tokens = await exchange(agent, code, codeVerifier);
    expect(decodeJwtPart(tokens.access_token, 1)).toMatchObject({ aud: server.resource.href, client_id: mine.clientId });
    const mcp = await connect(full, ordersPath, tokens.access_token);
    expect((await mcp.callTool({ name: "getOrder", arguments: { id: "document-agent" } })).isError).toBeUndefined();
    const refreshed = await refresh(agent, tokens.refresh_token!);
    expect((await mcpCall(ordersPath, refreshed.access_token)).status).toBe(200);
    expect(await (await developer.get("/settings/agents")).text()).toContain(`Document agent (unverified) from ${new URL(documentsBase).host}`);
    // The token endpoint knows the client from its consent, in this environment only.
    const stranger = await fetch(server.metadata.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshed.refresh_token!, client_id: `${documentsBase}/other.json` }),
    });
    expect(await stranger.json()).toMatchObject({ error: "invalid_client" });

    const ask = (clientId: string) =>
      developer.get(
        `/oauth/${ENV}/authorize?${new URLSearchParams({
          client_id: clientId,
          redirect_uri: REDIRECT,
          response_type: "code",
          code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
          code_challenge_method: "S256",
          resource: server.resource.href,
        })}`,
      );
    for (const [clientId, detail] of [
      [`${documentsBase}/other.json`, "names another client_id"],
      [`${documentsBase}/unlisted.json`, "not one the agent registered"],
      [`${documentsBase}/huge.json`, "more than 5120 bytes"],
      [`${documentsBase}/not-json`, "not JSON"],
      [`${documentsBase}/`, "with a path"],
      [`${documentsBase}/agent.json#x`, "with a path"],
    ] as const) {
      const refused = await ask(clientId);
      expect(refused.status, clientId).toBe(200);
      expect(refused.headers.get("location")).toBeNull();
      const page = await refused.text();
      expect(page, clientId).toContain("This agent cannot sign in");
      expect(page, clientId).toContain(detail);
    }

    // An anonymous visitor is sent to sign in before the portal fetches anything.
    const anonymous = await fetch(
      `${full.url}/oauth/${ENV}/authorize?${new URLSearchParams({ client_id: `${documentsBase}/anonymous.json`, redirect_uri: REDIRECT, response_type: "code" })}`,
      { redirect: "manual" },
    );
    expect(anonymous.headers.get("location")).toContain("/login");
    expect(fetched).not.toContain("/anonymous.json");
  });

  it("registers only public clients with loopback or https redirect URIs, bounded, and counts registrations per address", async () => {
    const registration = (body: unknown) =>
      fetch(server.metadata.registration_endpoint!, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    for (const [body, error] of [
      [{ redirect_uris: ["http://evil.example/callback"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://example.com/cb#frag"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ redirect_uris: Array.from({ length: 11 }, (_, index) => `http://127.0.0.1/${index}`) }, "invalid_redirect_uri"],
      [{ redirect_uris: [`https://example.com/${"x".repeat(2100)}`] }, "invalid_redirect_uri"],
      [{ redirect_uris: [REDIRECT], client_name: "x".repeat(101) }, "invalid_client_metadata"],
      [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata"],
      [{ redirect_uris: [REDIRECT], grant_types: ["implicit"] }, "invalid_client_metadata"],
      [[REDIRECT], "invalid_client_metadata"],
    ] as const) {
      const refused = await registration(body);
      expect(refused.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(((await refused.json()) as { error: string }).error, JSON.stringify(body).slice(0, 100)).toBe(error);
    }
    const huge = await registration({ redirect_uris: [REDIRECT], client_name: "x".repeat(40_000) });
    expect(huge.status).toBe(413);
    for (const redirect of ["http://localhost:1234/cb", "http://[::1]/cb", "https://agent.example/cb"]) {
      expect((await registration({ redirect_uris: [redirect] })).status, redirect).toBe(201);
    }
    let last: Response | undefined;
    for (let attempt = 0; attempt < 25 && last?.status !== 429; attempt++) last = await registration({ redirect_uris: [REDIRECT] });
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await last!.json()) as { error: string }).error).toBe("temporarily_unavailable");
  });
});
