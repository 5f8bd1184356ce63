import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { type PortalClient, signedIn } from "./portal-session";

let server: TestServer;
let database: Db;
let developer: PortalClient;
let admin: PortalClient;

beforeAll(async () => {
  server = await startServer();
  database = createDb(server.databaseUrl);
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
});

afterAll(async () => {
  await database?.$disconnect();
  await server?.stop();
});

const ORDERS_DOCUMENT = `
openapi: 3.1.0
info: { title: Orders, version: 2.0.0 }
paths:
  /v2/orders:
    get:
      responses:
        "200": { description: Orders }
`;

const orders = {
  name: "Orders API",
  slug: "orders",
  summary: "Orders of the shop.",
  description: "Place and follow orders.",
  version: "2.0.0",
  tags: "shop, Orders",
  scopes: "orders:read orders:write",
  visibility: "protected",
  credentialType: "",
  environments: [{ slug: "sso-qa", upstreamUrl: "http://127.0.0.1:9/orders" }],
  openapiDocument: ORDERS_DOCUMENT,
};

describe("API registry", () => {
  it("is for admins only", async () => {
    expect((await developer.post("/api/portal/admin/apis", orders)).status).toBe(403);
    expect((await developer.post("/api/portal/admin/apis/notifications", orders)).status).toBe(403);
    expect((await developer.get("/admin/apis")).status).toBe(403);
  });

  it("names each invalid field, including a document that is not OpenAPI", async () => {
    const response = await admin.post("/api/portal/admin/apis", {
      ...orders,
      slug: "oauth2",
      environments: [{ slug: "nowhere", upstreamUrl: "ftp://x" }],
      openapiDocument: "swagger: '2.0'\ninfo: {title: x, version: '1'}\npaths: {}",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()).errors as { field: string }[]).map((error) => error.field)).toEqual(["slug"]);
    const second = await admin.post("/api/portal/admin/apis", {
      ...orders,
      environments: [{ slug: "nowhere", upstreamUrl: "ftp://x" }],
      openapiDocument: "swagger: '2.0'",
    });
    const errors = (await second.json()).errors as { field: string; message: string }[];
    expect(errors.map((error) => error.field)).toEqual(["environments.0.slug", "environments.0.upstreamUrl", "openapiDocument"]);
    expect(errors[2]!.message).toContain("openapi");
    const twice = await admin.post("/api/portal/admin/apis", {
      ...orders,
      slug: "orders-twice",
      environments: [orders.environments[0], orders.environments[0]],
    });
    expect(twice.status).toBe(400);
    expect(((await twice.json()).errors as { field: string }[]).map((error) => error.field)).toEqual(["environments"]);
  });

  it("creates a proxied API that the catalog lists and the gateway protects, then edits it", async () => {
    const created = await admin.post("/api/portal/admin/apis", orders);
    expect(created.status).toBe(201);
    const stored = await database.api.findUniqueOrThrow({ where: { slug: "orders" }, include: { scopes: true, environments: true } });
    expect(stored).toMatchObject({ kind: "PROXY", isPublic: false, tags: ["shop", "orders"] });
    expect(stored.scopes.map((scope) => scope.name).sort()).toEqual(["orders:read", "orders:write"]);
    expect(JSON.parse(stored.openapiDocument!).paths["/v2/orders"]).toBeDefined();
    expect((await admin.post("/api/portal/admin/apis", orders)).status).toBe(400);
    await expect.poll(async () => (await fetch(`${server.url}/gw/sso-qa/orders/v2/orders`)).status, { timeout: 7_000 }).toBe(401);
    expect(await (await fetch(`${server.url}/apis/orders`)).text()).toContain("Orders API");

    const edited = await admin.post("/api/portal/admin/apis/orders", {
      ...orders,
      name: "Orders",
      environments: [...orders.environments, { slug: "platform-dev", upstreamUrl: "http://127.0.0.1:9/orders-dev" }],
    });
    expect(edited.status).toBe(200);
    const after = await database.api.findUniqueOrThrow({ where: { slug: "orders" }, include: { environments: true } });
    expect(after.name).toBe("Orders");
    expect(after.environments).toHaveLength(2);
    const audit = await database.auditEvent.findMany({ where: { targetType: "api", targetId: "orders" } });
    expect(audit.map((event) => event.action).sort()).toEqual(["api.create", "api.update"]);
    expect((await admin.post("/api/portal/admin/apis/missing", orders)).status).toBe(404);
  });
});

describe("an API's guides in the registry", () => {
  it("are written as one Markdown text, each from its # Title, served as pages and Markdown, and kept when an edit leaves them out", async () => {
    const billing = { ...orders, name: "Billing API", slug: "billing", openapiDocument: "" };
    const refused = await admin.post("/api/portal/admin/apis", { ...billing, guides: "No title here\n# Errors\n" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors).toEqual([{ in: "body", field: "guides", message: "Start each guide with a `# Title` line" }]);

    const guides = "# Getting started\n\nAsk for an invoice.\n\n```sh\n# not a title\n```\n\n# Errors\n\nEvery error is problem+json.\n";
    expect((await admin.post("/api/portal/admin/apis", { ...billing, guides })).status).toBe(201);
    const markdown = await fetch(`${server.url}/apis/billing/guides/getting-started.md`);
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toBe("# Getting started\n\nAsk for an invoice.\n\n```sh\n# not a title\n```\n");
    expect((await fetch(`${server.url}/apis/billing/guides/errors`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/llms.txt`)).text()).toContain(
      `- [Errors](${server.url}/apis/billing/guides/errors.md): a guide to the Billing API, in Markdown`,
    );

    expect((await admin.post("/api/portal/admin/apis/billing", { ...billing, summary: "Invoices." })).status).toBe(200);
    expect((await fetch(`${server.url}/apis/billing/guides/errors.md`)).status).toBe(200);
    expect((await admin.post("/api/portal/admin/apis/billing", { ...billing, guides: "# Errors\n\nOnly this one.\n" })).status).toBe(200);
    expect((await fetch(`${server.url}/apis/billing/guides/getting-started.md`)).status).toBe(404);
    expect(await (await admin.get("/admin/apis/billing")).text()).toContain("# Errors");
  });
});

describe("environments", () => {
  it("change settings with validation and create new ones", async () => {
    expect(
      (await developer.post("/api/portal/admin/environments/sso-qa", { name: "X", credentialType: "PLATFORM", tokenLifetimeSeconds: 60, selfService: "yes" }))
        .status,
    ).toBe(403);
    const invalid = await admin.post("/api/portal/admin/environments/sso-qa", {
      name: "",
      credentialType: "OTHER",
      tokenLifetimeSeconds: "5",
      selfService: "maybe",
    });
    expect(((await invalid.json()).errors as { field: string }[]).map((error) => error.field).sort()).toEqual([
      "credentialType",
      "name",
      "selfService",
      "tokenLifetimeSeconds",
    ]);
    const saved = await admin.post("/api/portal/admin/environments/sso-qa", {
      name: "Global SSO QA",
      credentialType: "GLOBAL_SSO",
      tokenLifetimeSeconds: "900",
      selfService: "yes",
    });
    expect(saved.status).toBe(200);
    expect((await database.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } })).tokenLifetimeSeconds).toBe(900);
    const created = await admin.post("/api/portal/admin/environments", {
      slug: "sandbox",
      name: "Sandbox",
      credentialType: "PLATFORM",
      tokenLifetimeSeconds: "3600",
      selfService: "yes",
    });
    expect(created.status).toBe(201);
    expect(
      (
        await admin.post("/api/portal/admin/environments", {
          slug: "sandbox",
          name: "Again",
          credentialType: "PLATFORM",
          tokenLifetimeSeconds: "3600",
          selfService: "yes",
        })
      ).status,
    ).toBe(400);
  });
});

describe("usage", () => {
  it("charts the gateway's request log per API, environment and application", async () => {
    const credential = await database.credential.findFirstOrThrow({ include: { application: true } });
    const at = new Date(Date.now() - 30 * 60_000);
    await database.requestLog.createMany({
      data: [200, 200, 404, 500].map((status, index) => ({
        at,
        environment: "sso-qa",
        api: "usage-test-api",
        clientId: credential.clientId,
        method: "GET",
        route: "/v1/things",
        status,
        latencyMs: 10 + index,
        requestId: `req_usage_${index}`,
      })),
    });
    const page = await admin.get("/admin/usage?api=usage-test-api");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("usage-test-api");
    expect(html).toContain(credential.application.name);
    expect(html).toMatch(/usage-test-api<\/td><td[^>]*>4<\/td><td[^>]*>2<\/td>/);
    expect((await developer.get("/admin/usage")).status).toBe(403);
  });
});
