import type { BuiltInRoute } from "../built-in-apis/route";
import { problem } from "../http/problem";

type CompiledRoute = { route: BuiltInRoute; pattern: RegExp; names: string[] };

export type RouteTable = (method: string, path: string) => { route: BuiltInRoute; params: Record<string, string> };

function compile(route: BuiltInRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((segment) => {
      const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1]!);
      return "([^/]+)";
    })
    .join("/");
  return { route, pattern: new RegExp(`^${source}$`), names };
}

/**
 * Matches method and path against a built-in API's route templates: an
 * unknown path is 404, a known path with another method 405 with `Allow`.
 * HEAD is served wherever GET is (RFC 9110 §9.3.2); Node sends no body for it.
 */
export function createRouteTable(routes: readonly BuiltInRoute[]): RouteTable {
  const compiled = routes.map(compile);
  return (method, path) => {
    const allowed: string[] = [];
    const asMethod = method === "HEAD" ? "GET" : method;
    for (const candidate of compiled) {
      const match = candidate.pattern.exec(path);
      if (!match) continue;
      if (candidate.route.method !== asMethod) {
        allowed.push(...(candidate.route.method === "GET" ? ["GET", "HEAD"] : [candidate.route.method]));
        continue;
      }
      const params: Record<string, string> = {};
      try {
        candidate.names.forEach((name, index) => (params[name] = decodeURIComponent(match[index + 1]!)));
      } catch {
        throw problem("validation-failed", {
          detail: "A path segment is not valid percent-encoding.",
          errors: [{ in: "path", field: candidate.names.join(","), message: "is not valid percent-encoding" }],
        });
      }
      return { route: candidate.route, params };
    }
    if (allowed.length > 0) {
      throw problem("method-not-allowed", {
        detail: `${path} accepts ${allowed.join(", ")}.`,
        headers: { allow: allowed.join(", ") },
      });
    }
    throw problem("not-found", { detail: `There is no operation at ${path || "/"}.` });
  };
}
