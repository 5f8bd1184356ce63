import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiChanges } from "@/components/api-page/api-changes";
import { notificationsDocument } from "@/lib/notifications/openapi";

const v1 = notificationsDocument({ gatewayUrl: "https://gw.example/gw/sandbox" }) as { paths: Record<string, Record<string, unknown>> };
const v2 = structuredClone(v1);
delete v2.paths["/v1/notifications/{id}"]!.get;
const v3 = structuredClone(v2);
v3.paths["/v1/notifications"]!.post = { summary: "Send one", responses: { 201: { description: "Created" } } };

describe("ApiChanges", () => {
  it("renders each step, newest first, with breaking changes marked in words", () => {
    const html = renderToStaticMarkup(
      createElement(ApiChanges, {
        versions: [
          { version: "v1", openapiDocument: JSON.stringify(v1) },
          { version: "v2", openapiDocument: JSON.stringify(v2) },
          { version: "v3", openapiDocument: JSON.stringify(v3) },
        ],
      }),
    );
    const text = html.replaceAll(/<[^>]+>/g, " ").replaceAll(/\s+/g, " ");
    expect(text).toContain("v2 → v3 Added (1) POST /v1/notifications · Send one");
    expect(text).toContain("v1 → v2 Breaking Removed (1) GET /v1/notifications/{id}");
    expect(text.indexOf("v2 → v3")).toBeLessThan(text.indexOf("v1 → v2"));
  });

  it("renders nothing for an API with one version", () => {
    expect(renderToStaticMarkup(createElement(ApiChanges, { versions: [{ version: "v1", openapiDocument: null }] }))).toBe("");
  });
});
