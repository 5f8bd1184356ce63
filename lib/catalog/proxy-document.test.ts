import { describe, expect, it } from "vitest";
import { proxyDocument, withApiKeyScheme } from "./proxy-document";

describe("an API's document with API keys", () => {
  it("offers the X-API-Key scheme beside the bearer one, either of them satisfying a call", () => {
    const api = { name: "Orders", summary: "Orders", version: "1.0.0", isPublic: false, openapiDocument: null };
    const document = withApiKeyScheme(proxyDocument(api)) as { components: { securitySchemes: Record<string, unknown> }; security: unknown[] };
    expect(document.components.securitySchemes.apiKeyAuth).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(document.components.securitySchemes.bearerAuth).toBeDefined();
    expect(document.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }]);
  });
});
