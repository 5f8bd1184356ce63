import { describe, expect, it } from "vitest";
import { withSingleServer } from "./single-server";

describe("withSingleServer", () => {
  it("keeps only the given server, also removing path and operation overrides", () => {
    const document = {
      openapi: "3.1.0",
      servers: [{ url: "https://a.internal" }, { url: "https://b.internal" }],
      paths: {
        "/items": {
          servers: [{ url: "https://c.internal" }],
          parameters: [],
          get: { servers: [{ url: "https://d.internal" }], responses: {} },
        },
      },
    };
    expect(withSingleServer(document, { url: "https://portal/gw/sso-qa/items", description: "Global SSO QA gateway" })).toEqual({
      openapi: "3.1.0",
      servers: [{ url: "https://portal/gw/sso-qa/items", description: "Global SSO QA gateway", "x-internal": false }],
      paths: { "/items": { parameters: [], get: { responses: {} } } },
    });
  });
});
