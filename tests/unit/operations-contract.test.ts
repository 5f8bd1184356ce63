import { describe, expect, it } from "vitest";
import type { NotificationStore } from "../../lib/data-plane/notifications";
import { createRouteTable } from "../../lib/gateway/route-match";
import { PROBLEMS } from "../../lib/http/problem-types";
import { notificationsDocument } from "../../lib/notifications/openapi";
import { createNotificationRoutes, NOTIFICATION_OPERATIONS } from "../../lib/notifications/operations";
import { createPageCache } from "../../lib/notifications/page-cache";
import { tokenApiDocument } from "../../lib/oauth/openapi";
import { isTokenServicePath, TOKEN_OPERATIONS } from "../../lib/oauth/operations";
import { problemOf } from "../support/problems";

type Item = Record<
  string,
  {
    operationId?: string;
    "x-required-scope"?: string;
    responses?: Record<string, { content?: Record<string, { example?: { title: string; status: number } }> }>;
  }
>;
type Document = {
  paths: Record<string, Item>;
  components?: { responses?: Record<string, { content: Record<string, { example: { type: string; title: string; status: number } }> }> };
};

const METHODS = ["get", "put", "post", "patch", "delete"];
const GATEWAY = "https://portal.example/gw/sso-qa";

/** Every operation of a document as `METHOD path`, with its scope. */
function documented(document: Document): Map<string, string | undefined> {
  const operations = new Map<string, string | undefined>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) if (item[method]) operations.set(`${method.toUpperCase()} ${path}`, item[method]["x-required-scope"]);
  }
  return operations;
}

/** A concrete path for a template: each `{name}` becomes a sample value. */
function sample(path: string): string {
  return path.replace(/\{[^}]+\}/g, "ntf_sample");
}

describe("Notifications API: document and routes", () => {
  const document = notificationsDocument({ gatewayUrl: GATEWAY }) as Document;
  const routes = createNotificationRoutes({ store: {} as NotificationStore, pages: createPageCache() });
  const match = createRouteTable(routes);

  it("documents exactly the routed operations, with the scope the gateway checks", () => {
    const routed = new Map(routes.map((route) => [`${route.method} ${route.path}`, route.scope]));
    expect(documented(document)).toEqual(routed);
  });

  it("routes every documented operation and answers other methods on its path with 405 and Allow", () => {
    for (const [operation] of documented(document)) {
      const [method, path] = operation.split(" ") as [string, string];
      expect(match(method, sample(path)).route.path).toBe(path);
      const allowed = routes.filter((route) => route.path === path).flatMap((route): string[] => (route.method === "GET" ? ["GET", "HEAD"] : [route.method]));
      if (allowed.includes("HEAD")) expect(match("HEAD", sample(path)).route.method).toBe("GET");
      for (const other of ["GET", "PUT", "POST", "PATCH", "DELETE", "HEAD"].filter((candidate) => !allowed.includes(candidate))) {
        const refusal = problemOf(() => match(other, sample(path)));
        expect(refusal).toMatchObject({ status: 405, code: "method-not-allowed", headers: { allow: allowed.join(", ") } });
      }
    }
    expect(problemOf(() => match("GET", "/v1/elsewhere")).status).toBe(404);
  });

  it("takes every problem example's title and status from the registry", () => {
    const examples = [
      ...Object.values(document.paths).flatMap((item) =>
        METHODS.flatMap((method) => Object.values(item[method]?.responses ?? {}).map((response) => response.content?.["application/problem+json"]?.example)),
      ),
      ...Object.values(document.components?.responses ?? {}).map((response) => response.content["application/problem+json"]?.example),
    ].filter((example) => example !== undefined) as { type: string; title: string; status: number }[];
    expect(examples.length).toBeGreaterThan(5);
    for (const example of examples) {
      const code = example.type.split("/problems/")[1] as keyof typeof PROBLEMS;
      expect(example).toMatchObject({ title: PROBLEMS[code].title, status: PROBLEMS[code].status });
    }
  });

  it("declares each operation once", () => {
    const keys = NOTIFICATION_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("token service: document and path checks", () => {
  const document = tokenApiDocument({
    api: { name: "Token", summary: "s", description: "d", version: "1.0.0" },
    env: { slug: "sso-qa", name: "Global SSO QA" },
    gatewayUrl: GATEWAY,
  }) as Document;

  it("documents exactly the endpoints the gateway hands to the token service", () => {
    const routed = new Map(TOKEN_OPERATIONS.map((operation) => [`${operation.method} ${operation.path}`, undefined]));
    expect(documented(document)).toEqual(routed);
    for (const path of Object.keys(document.paths)) expect(isTokenServicePath(path.slice(1))).toBe(true);
    for (const path of ["oauth2/authorize", ".well-known/openid-configuration", "oauth2/token/"]) expect(isTokenServicePath(path)).toBe(false);
  });
});
