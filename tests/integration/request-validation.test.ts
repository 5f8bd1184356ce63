// Request validation (lib/gateway/policies/request-validation): each proxied call checked against
// its operation in the called version's OpenAPI document, on both gateway processes. `enforce`
// refuses with 400 request-invalid and never calls the upstream; `report` forwards the call and
// records why it failed in the request log and the metric; `off` and no policy check nothing.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import type { ApiPolicies } from "../../lib/gateway/policies/policy-set";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { accessToken, eventually, GATEWAY_PROCESSES, newCredential, openDb, registerProxyApi, SERVER_AUTH_SECRET } from "./gateway-support";
import { signedIn } from "./portal-session";

const ENV = "sso-qa";
const METRICS_TOKEN = "metrics-token-for-the-tests-0123";

const DOCUMENT_31 = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Shelf", version: "1" },
  paths: {
    "/v1/items": {
      get: {
        parameters: [
          { name: "ids", in: "query", style: "form", explode: false, schema: { type: "array", items: { type: "integer" } } },
          { name: "tags", in: "query", style: "form", explode: true, schema: { type: "array", items: { type: "string", enum: ["red", "blue"] } } },
        ],
      },
      post: {
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/NewItem" } } },
        },
      },
    },
    "/v1/items/{id}": {
      get: {
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "integer" } },
          { name: "X-Shelf-Region", in: "header", required: true, schema: { type: "string", enum: ["eu", "us"] } },
        ],
      },
    },
    "/v1/batches": {
      post: {
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/NewItem" } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      NewItem: {
        type: "object",
        required: ["name", "price"],
        additionalProperties: false,
        properties: { name: { type: "string", minLength: 1 }, price: { $ref: "#/components/schemas/Price" } },
      },
      Price: { type: "number", minimum: 0 },
    },
  },
});

const DOCUMENT_30 = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Legacy", version: "1" },
  paths: {
    "/v1/notes": {
      post: {
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["text"],
                properties: { text: { type: "string", nullable: true }, stars: { type: "integer", maximum: 5, exclusiveMaximum: true } },
              },
            },
          },
        },
      },
    },
  },
});

type Received = { method: string; url: string; body: string; contentType: string | undefined };

/** An upstream that answers 200 with what it received, and keeps each call. */
async function echoUpstream(cleanups: (() => Promise<unknown>)[]): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const call = { method: req.method!, url: req.url!, body: Buffer.concat(chunks).toString("utf8"), contentType: req.headers["content-type"] };
      received.push(call);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(call));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

async function setPolicies(db: Db, slug: string, policies: ApiPolicies): Promise<void> {
  await db.api.update({ where: { slug }, data: { policies } });
}

type Problem = { type: string; status: number; requestId: string; errors: { in: string; pointer?: string; name?: string; message: string }[] };

describe.each(GATEWAY_PROCESSES)("request validation on $name", ({ name, env, nodeArgs }) => {
  const processTag = name.replaceAll(" ", "-");
  const cleanups: (() => Promise<unknown>)[] = [];
  let server: TestServer;
  let db: Db;
  let token: string;
  let upstream: Awaited<ReturnType<typeof echoUpstream>>;

  beforeAll(async () => {
    server = await startServer({ env: { ...env, METRICS_TOKEN }, nodeArgs });
    cleanups.push(() => server.stop());
    db = openDb(server);
    cleanups.push(() => db.$disconnect());
    upstream = await echoUpstream(cleanups);
    // Every API and policy is written before the gateway first reads its directory, so each applies at once.
    const apis: [string, string, ApiPolicies | undefined, { maxRequestBodyBytes?: number }?][] = [
      ["shelf", DOCUMENT_31, { policies: { requestValidation: { mode: "enforce" } } }],
      ["legacy", DOCUMENT_30, { policies: { requestValidation: { mode: "enforce" } } }],
      ["watched", DOCUMENT_31, { policies: { requestValidation: { mode: "report" } } }],
      ["unchecked", DOCUMENT_31, { policies: { requestValidation: { mode: "off" } } }],
      ["plain", DOCUMENT_31, undefined],
      ["mixed", DOCUMENT_31, { policies: { requestValidation: { mode: "enforce" } }, routes: { "POST /v1/items": { requestValidation: { mode: "report" } } } }],
      ["small", DOCUMENT_31, { policies: { requestValidation: { mode: "enforce" } } }, { maxRequestBodyBytes: 64 }],
    ];
    for (const [slug, openapiDocument, policies, limits] of apis) {
      await registerProxyApi(db, { slug, openapiDocument, upstream: { targets: [{ url: upstream.url, weight: 1 }], ...limits } });
      if (policies) await setPolicies(db, slug, policies);
    }
    token = await accessToken(server, ENV, await newCredential(db, ENV));
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  function call(api: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
    return fetch(`${server.url}/gw/${ENV}/${api}${path}`, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${token}`, ...init.headers },
      body: init.body,
    });
  }

  const postJson = (api: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(api, path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  /** The refusal's problem, once checked to be request-invalid with no call reaching the upstream. */
  async function refused(response: Response, upstreamCallsBefore: number): Promise<Problem> {
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await response.json()) as Problem;
    expect(problem.type).toBe(`${server.url}/problems/request-invalid`);
    expect(problem.requestId).toBe(response.headers.get("x-request-id"));
    expect(upstream.received.length).toBe(upstreamCallsBefore);
    return problem;
  }

  it("forwards a valid JSON body as sent, and refuses one that fails its $ref'd schema, pointing at each value", async () => {
    const sent = '{"name":"pen",  "price": 2.5}';
    const passed = await postJson("shelf", "/v1/items", sent);
    expect(passed.status).toBe(200);
    expect(((await passed.json()) as Received).body).toBe(sent);

    const before = upstream.received.length;
    const problem = await refused(await postJson("shelf", "/v1/items", { price: -1, colour: "red" }), before);
    expect(problem.errors).toEqual([
      { in: "body", pointer: "/name", message: "must have required property 'name'" },
      { in: "body", pointer: "/colour", message: "must NOT have additional properties" },
      { in: "body", pointer: "/price", message: "must be >= 0" },
    ]);
  });

  it("reads a query array in form style, exploded and not, and checks its items", async () => {
    expect((await call("shelf", "/v1/items?ids=1,2,3&tags=red&tags=blue")).status).toBe(200);
    const before = upstream.received.length;
    const problem = await refused(await call("shelf", "/v1/items?ids=1,two&tags=red&tags=green"), before);
    expect(problem.errors).toEqual([
      { in: "query", name: "ids", message: "/1: must be integer" },
      { in: "query", name: "tags", message: "/1: must be equal to one of the allowed values" },
    ]);
  });

  it("checks a path parameter's type and a required header parameter", async () => {
    expect((await call("shelf", "/v1/items/42", { headers: { "x-shelf-region": "eu" } })).status).toBe(200);
    const before = upstream.received.length;
    const problem = await refused(await call("shelf", "/v1/items/forty-two"), before);
    expect(problem.errors).toEqual([
      { in: "path", name: "id", message: "must be integer" },
      { in: "header", name: "X-Shelf-Region", message: "is required" },
    ]);
  });

  it("refuses a missing required body, a content type the operation does not declare, and text that is not JSON", async () => {
    const before = upstream.received.length;
    expect((await refused(await call("shelf", "/v1/items", { method: "POST" }), before)).errors).toEqual([{ in: "body", pointer: "", message: "is required" }]);
    const xml = await call("shelf", "/v1/items", { method: "POST", headers: { "content-type": "application/xml" }, body: "<item/>" });
    expect((await refused(xml, before)).errors).toEqual([{ in: "header", name: "content-type", message: "must be one of: application/json" }]);
    expect((await refused(await postJson("shelf", "/v1/items", "{name"), before)).errors).toEqual([{ in: "body", pointer: "", message: "is not valid JSON" }]);
  });

  it("reports at most 20 errors", async () => {
    const items = Array.from({ length: 15 }, () => ({ price: "free" }));
    const problem = await refused(await postJson("shelf", "/v1/batches", items), upstream.received.length);
    expect(problem.errors).toHaveLength(20);
  });

  it("checks an OpenAPI 3.0 document with nullable and draft 04's exclusiveMaximum", async () => {
    expect((await postJson("legacy", "/v1/notes", { text: null, stars: 4 })).status).toBe(200);
    const problem = await refused(await postJson("legacy", "/v1/notes", { text: 3, stars: 5 }), upstream.received.length);
    expect(problem.errors).toEqual([
      { in: "body", pointer: "/text", message: "must be string" },
      { in: "body", pointer: "/stars", message: "must be < 5" },
    ]);
  });

  it("answers 413 for a body over the upstream's limit, before the upstream is called", async () => {
    const before = upstream.received.length;
    const response = await postJson("small", "/v1/items", { name: "x".repeat(100), price: 1 });
    expect(response.status).toBe(413);
    expect(((await response.json()) as Problem).type).toBe(`${server.url}/problems/payload-too-large`);
    expect(upstream.received.length).toBe(before);
  });

  it("under report, forwards a failing call and records its errors in the request log and the metric", async () => {
    const requestId = `validation-report-${processTag}`;
    const response = await postJson("watched", "/v1/items", { name: "" }, { "x-request-id": requestId });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Received).body).toBe('{"name":""}');
    await server.settledOutput();
    let row: { validationErrors: string | null; route: string | null } | null = null;
    await eventually(async () => (row = await db.requestLog.findFirst({ where: { requestId }, select: { validationErrors: true, route: true } })) !== null);
    expect(row).not.toBeNull();
    expect(row!.route).toBe("/v1/items");
    expect(JSON.parse(row!.validationErrors!)).toEqual([
      { in: "body", pointer: "/price", message: "must have required property 'price'" },
      { in: "body", pointer: "/name", message: "must NOT have fewer than 1 characters" },
    ]);
    const valid = `validation-report-valid-${processTag}`;
    expect((await postJson("watched", "/v1/items", { name: "a", price: 1 }, { "x-request-id": valid })).status).toBe(200);
    await eventually(async () => (await db.requestLog.count({ where: { requestId: valid } })) === 1);
    expect((await db.requestLog.findFirstOrThrow({ where: { requestId: valid } })).validationErrors).toBeNull();

    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toContain('gatehouse_request_validation_failures_total{api="watched",route="/v1/items",mode="report"} 1');
    expect(metrics).toMatch(/gatehouse_request_validation_failures_total\{api="shelf",route="\/v1\/items",mode="enforce"\} \d+/);
  });

  it("checks nothing under off or without a policy", async () => {
    for (const api of ["unchecked", "plain"]) {
      const response = await postJson(api, "/v1/items", "{not json", { "x-request-id": `validation-${api}` });
      expect(response.status).toBe(200);
      expect((await call(api, "/v1/items/forty-two")).status).toBe(200);
    }
  });

  it("lets a route's policy replace the API's: report on one route while the API enforces", async () => {
    expect((await postJson("mixed", "/v1/items", { name: 1 })).status).toBe(200);
    const problem = await refused(await postJson("mixed", "/v1/batches", [{ name: 1 }]), upstream.received.length);
    expect(problem.errors[0]).toEqual({ in: "body", pointer: "/0/price", message: "must have required property 'price'" });
  });

  // The portal runs in the full server only.
  it.skipIf(nodeArgs !== undefined)("shows a developer's failing calls and their errors in Settings → Usage and the console's usage page", async () => {
    const owner = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
    const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: owner.id, name: "Validation App" });
    const { credential, secret } = await createCredential({
      db,
      actor: CLI_ACTOR,
      applicationId: application.id,
      envSlug: ENV,
      authSecret: SERVER_AUTH_SECRET,
    });
    const ownToken = await accessToken(server, ENV, { clientId: credential.clientId, clientSecret: secret!.clientSecret });
    const requestId = "validation-shown-in-usage";
    const response = await fetch(`${server.url}/gw/${ENV}/watched/v1/items?ids=1,x`, {
      headers: { authorization: `Bearer ${ownToken}`, "x-request-id": requestId },
    });
    expect(response.status).toBe(200);
    await eventually(async () => (await db.requestLog.count({ where: { requestId } })) === 1);

    const developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
    const usage = await (await developer.get("/settings/usage")).text();
    expect(usage).toContain("Latest calls of your applications that failed request validation");
    expect(usage).toContain(requestId);
    expect(usage).toContain("query ids: /1: must be integer");
    const lookedUp = await (await developer.get(`/settings/usage?requestId=${requestId}`)).text();
    expect(lookedUp).toContain("Request validation");
    expect(lookedUp).toContain("query ids: /1: must be integer");

    const admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
    const consolePage = await (await admin.get("/admin/usage?api=watched")).text();
    expect(consolePage).toContain(requestId);
    expect(consolePage).toContain("query ids: /1: must be integer");
    const elsewhere = await (await admin.get("/admin/usage?api=shelf")).text();
    expect(elsewhere).not.toContain(requestId);
  });
});
