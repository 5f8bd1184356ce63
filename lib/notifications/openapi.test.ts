import { checkOpenApiValue } from "../api-registry/openapi-check";
import { describe, expect, it } from "vitest";
import { notificationsDocument } from "./openapi";

const GATEWAY = "https://portal.example.com/gw/sso-qa";

type Operation = { parameters?: { name: string }[]; responses: Record<string, unknown>; security?: unknown };

describe("notificationsDocument", () => {
  const document = notificationsDocument({ gatewayUrl: GATEWAY }) as {
    info: { version: string; description: string };
    servers: { url: string }[];
    security: unknown;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { properties?: Record<string, unknown> }> };
  };

  it("passes the check the portal applies on save, as OpenAPI 3.1", async () => {
    const result = await checkOpenApiValue(document);
    expect(result.ok ? undefined : result.errors).toBeUndefined();
    expect(result.ok && result.version).toMatch(/^3\.1\./);
  });

  it("has exactly one server, the environment's gateway URL for the API", () => {
    expect(document.servers).toEqual([{ url: `${GATEWAY}/notifications`, description: "Gateway" }]);
  });

  it("is version 1.0.0 with the changelog entry", () => {
    expect(document.info.version).toBe("1.0.0");
    expect(document.info.description).toContain("1.0.0 — initial release, 5 December 2022");
  });

  it("declares the bearer JWT scheme and uses it everywhere", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it("documents every query parameter the validator accepts and every response", () => {
    const list = document.paths["/v1/notifications"]!.get!;
    expect(list.parameters!.map((parameter) => parameter.name)).toEqual(["status", "category", "severity", "since", "limit", "cursor"]);
    expect(Object.keys(list.responses).sort()).toEqual(["200", "400", "401", "403", "429"]);
    const item = document.paths["/v1/notifications/{id}"]!;
    expect(Object.keys(item.get!.responses).sort()).toEqual(["200", "304", "400", "401", "403", "404", "429"]);
    expect(Object.keys(item.put!.responses).sort()).toEqual(["200", "400", "401", "403", "404", "412", "413", "415", "429"]);
  });

  it("takes the resource and the PUT body from the zod schemas", () => {
    expect(Object.keys(document.components.schemas.Notification!.properties!)).toEqual([
      "id",
      "title",
      "body",
      "category",
      "severity",
      "status",
      "link",
      "createdAt",
      "updatedAt",
      "readAt",
    ]);
    expect(document.components.schemas.UpdateNotification).toMatchObject({ required: ["status"], additionalProperties: false });
    expect(document.components.schemas.Problem!.properties).toHaveProperty("requestId");
  });
});
