import { checkOpenApiValue } from "../api-registry/openapi-check";
import { describe, expect, it } from "vitest";
import { tokenApiDocument } from "./openapi";

const GATEWAY = "https://portal.example.com/gw/platform-dev";

type Operation = { requestBody?: { content: Record<string, unknown> }; responses: Record<string, unknown>; security?: unknown };

describe("tokenApiDocument", () => {
  const document = tokenApiDocument({
    api: { name: "Platform Access Token", summary: "Tokens.", description: "The token endpoint.", version: "1.0.0" },
    env: { slug: "platform-dev", name: "Platform Development" },
    gatewayUrl: GATEWAY,
  }) as {
    servers: unknown;
    security?: unknown;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes?: unknown; schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
  };

  it("passes the check the portal applies on save, as OpenAPI 3.1", async () => {
    const result = await checkOpenApiValue(document);
    expect(result.ok ? undefined : result.errors).toBeUndefined();
    expect(result.ok && result.version).toMatch(/^3\.1\./);
  });

  it("has the environment's gateway as its only server and no security requirement", () => {
    expect(document.servers).toEqual([{ url: GATEWAY, description: "Platform Development" }]);
    expect(document.security).toBeUndefined();
    expect(document.components.securitySchemes).toBeUndefined();
    for (const methods of Object.values(document.paths)) for (const operation of Object.values(methods)) expect(operation.security).toBeUndefined();
  });

  it("documents the token request from the validating schema, in form and JSON, with every error status", () => {
    const token = document.paths["/oauth2/token"]!.post!;
    expect(Object.keys(token.requestBody!.content)).toEqual(["application/x-www-form-urlencoded", "application/json"]);
    expect(Object.keys(token.responses).sort()).toEqual(["200", "400", "401", "405", "413", "429"]);
    const request = document.components.schemas.TokenRequest!;
    expect(Object.keys(request.properties)).toEqual(["grant_type", "scope", "client_id", "client_secret", "client_assertion_type", "client_assertion"]);
    expect(request.required).toEqual(["grant_type"]);
    expect(request.properties.grant_type).toMatchObject({ enum: ["client_credentials"] });
  });
});
