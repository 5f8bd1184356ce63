import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createDb } from "../../lib/db";
import { newId } from "../../lib/ids";
import { checkOpenApiValue } from "../../lib/api-registry/openapi-check";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

/** The check the portal applies on save: what Gatehouse publishes must pass it. */
async function validOpenApi(document: Record<string, unknown>) {
  const result = await checkOpenApiValue(document);
  return { valid: result.ok, errors: result.ok ? undefined : result.errors };
}

describe("raw OpenAPI documents", () => {
  it("serves the Notifications API with the chosen environment's gateway as its only server", async () => {
    const response = await fetch(`${server.url}/apis/notifications/openapi.json?env=platform-dev`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const document = await response.json();
    expect(document.servers).toEqual([
      { url: `${server.url}/gw/platform-dev/notifications`, description: "Platform Development gateway", "x-internal": false },
    ]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/v1/notifications", "/v1/notifications/{id}"]));
    const result = await validOpenApi(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("defaults to the API's first environment", async () => {
    const document = await (await fetch(`${server.url}/apis/notifications/openapi.json`)).json();
    expect(document.servers).toEqual([{ url: `${server.url}/gw/sso-qa/notifications`, description: "Global SSO QA gateway", "x-internal": false }]);
  });

  it("serves the same document as YAML", async () => {
    const [json, yaml] = await Promise.all([
      fetch(`${server.url}/apis/notifications/openapi.json?env=sso-prod`),
      fetch(`${server.url}/apis/notifications/openapi.yaml?env=sso-prod`),
    ]);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    expect(parse(await yaml.text())).toEqual(await json.json());
  });

  it("serves a token API at the gateway itself, with no security requirement", async () => {
    const response = await fetch(`${server.url}/apis/global-sso-token/openapi.json?env=sso-prod`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.servers).toEqual([{ url: `${server.url}/gw/sso-prod`, description: "Global SSO Production gateway", "x-internal": false }]);
    expect(document.security ?? []).toEqual([]);
    expect(JSON.stringify(document)).not.toContain('"bearer"');
    const result = await validOpenApi(document);
    expect(result.errors).toBeUndefined();
  });

  it.each([
    ["an unknown API", "/apis/no-such-api/openapi.json?env=sso-qa", 'There is no API "no-such-api".'],
    ["an unknown environment", "/apis/notifications/openapi.yaml?env=nowhere", 'The API "notifications" is not available in an environment "nowhere".'],
    [
      "an environment the API is not offered in",
      "/apis/platform-token/openapi.json?env=sso-qa",
      'The API "platform-token" is not available in an environment "sso-qa".',
    ],
  ])("answers %s with a 404 problem", async (_case, path, detail) => {
    const response = await fetch(`${server.url}${path}`, { headers: { "x-request-id": "spec-404-check" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toEqual({
      type: `${server.url}/problems/not-found`,
      title: "Not found",
      status: 404,
      detail,
      instance: path.split("?")[0],
      requestId: "spec-404-check",
    });
  });

  it("gives a proxied API's uploaded document one server and the bearer scheme the gateway enforces", async () => {
    const db = createDb(server.databaseUrl);
    try {
      const environment = await db.environment.findUniqueOrThrow({ where: { slug: "platform-dev" } });
      await db.api.create({
        data: {
          id: newId("api"),
          slug: "inventory",
          name: "Inventory API",
          summary: "Stock levels.",
          description: "Stock levels per warehouse.",
          version: "2.1.0",
          tags: ["stock"],
          kind: "PROXY",
          isPublic: false,
          changelog: [],
          openapiDocument: JSON.stringify({
            openapi: "3.1.0",
            info: { title: "Inventory", version: "2.1.0" },
            servers: [{ url: "https://inventory.internal" }, { url: "https://inventory-backup.internal" }],
            paths: {
              "/items": {
                servers: [{ url: "https://path-override.internal" }],
                get: { servers: [{ url: "https://op-override.internal" }], responses: { "200": { description: "Items" } } },
              },
            },
          }),
          environments: { create: [{ environmentId: environment.id, upstream: { targets: [{ url: "https://inventory.internal", weight: 1 }] } }] },
        },
      });
    } finally {
      await db.$disconnect();
    }
    const document = await (await fetch(`${server.url}/apis/inventory/openapi.json?env=platform-dev`)).json();
    expect(document.servers).toEqual([{ url: `${server.url}/gw/platform-dev/inventory`, description: "Platform Development gateway", "x-internal": false }]);
    expect(JSON.stringify(document)).not.toContain(".internal");
    expect(document.paths["/items"].get.responses["200"].description).toBe("Items");
    expect(document.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    const result = await validOpenApi(document);
    expect(result.errors).toBeUndefined();
  });
});
