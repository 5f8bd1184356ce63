import { describe, expect, it } from "vitest";
import type { BuiltInRoute } from "../../lib/built-in-apis/route";
import { createRouteTable } from "../../lib/gateway/route-match";
import { problemOf } from "../support/problems";

const handle = async () => ({ status: 204, headers: {}, body: null });
const routes: BuiltInRoute[] = [
  { method: "GET", path: "/v1/things", scope: "things:read", handle },
  { method: "GET", path: "/v1/things/{id}", scope: "things:read", handle },
  { method: "PUT", path: "/v1/things/{id}", scope: "things:write", handle },
];
const match = createRouteTable(routes);

describe("route table", () => {
  it("matches method and template and decodes parameters", () => {
    const found = match("PUT", "/v1/things/a%20b");
    expect(found.route.path).toBe("/v1/things/{id}");
    expect(found.route.scope).toBe("things:write");
    expect(found.params).toEqual({ id: "a b" });
  });

  it("serves HEAD with the GET route of the path", () => {
    expect(match("HEAD", "/v1/things/1").route.method).toBe("GET");
  });

  it("answers 405 with Allow for a known path and another method", () => {
    const problem = problemOf(() => match("DELETE", "/v1/things/1"));
    expect(problem.status).toBe(405);
    expect(problem.headers).toEqual({ allow: "GET, HEAD, PUT" });
  });

  it("answers 404 for unknown paths, trailing slashes and extra segments", () => {
    for (const path of ["/v1/thing", "/v1/things/", "/v1/things/1/x", ""]) expect(problemOf(() => match("GET", path)).status).toBe(404);
  });

  it("answers 400 naming the parameter for broken percent-encoding", () => {
    const problem = problemOf(() => match("GET", "/v1/things/%E0%A4%A"));
    expect(problem.status).toBe(400);
    expect(problem.errors).toEqual([{ in: "path", field: "id", message: "is not valid percent-encoding" }]);
  });
});
