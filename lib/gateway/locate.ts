import "server-only";
import type { ApiKind } from "../db";
import type { IncomingRequest } from "../http/message";
import { problem, ProblemError } from "../http/problem";
import { methodNotServed } from "../http/served-methods";
import { isTokenServicePath } from "../oauth/token-service";
import type { DirectoryView, GatewayApi, GatewayDirectory, GatewayEnvironment } from "./directory";
import { UNDECLARED_ROUTE } from "./document-routes";
import { apiList, environmentList } from "./not-found-hints";
import type { BuiltInOperation, Decision, Located } from "./pipeline";
import type { RouteTable } from "./route-match";
import { parseTarget, type Target } from "./target";
import { type GatewayVersion, selectVersion } from "./versions";

/** Where a call's path leads, with what the record keeps of it (environment, API, route); or the refusal of a path that leads nowhere. */
export type Location = Decision & { at?: Located };

/** Finds where a request's canonical path leads, before any policy runs: at once while the directory's snapshot is fresh. */
export type Locator = (request: IncomingRequest, path: string) => Location | Promise<Location>;

function notFound(detail: string): ProblemError {
  return problem("not-found", { detail });
}

/** A built-in call's operation and parameters, or the refusal for a path that names none. */
function matchBuiltIn(table: RouteTable, method: string, remainder: string): BuiltInOperation {
  try {
    return table(method, remainder);
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
}

/**
 * A proxied call's route: the template of its API's document that its path matches,
 * `(undeclared)` when the document declares no such path, `/*` for an API without one.
 */
export function proxiedRoute(version: GatewayVersion | undefined, remainder: string): string {
  return version?.routes ? (version.routes(remainder) ?? UNDECLARED_ROUTE) : "/*";
}

/**
 * The gateway's locator: the environment and API the path names, the version it goes to, and
 * its route: a proxied call's from its version's document, a built-in call's operation from its
 * route table, matched now so that the lifecycle knows it, its 404 or 405 held for authorization.
 */
export function createLocator(deps: { directory: GatewayDirectory; routeTables: ReadonlyMap<ApiKind, RouteTable> }): Locator {
  const { directory, routeTables } = deps;

  function locateInApi(request: IncomingRequest, env: GatewayEnvironment, api: GatewayApi, remainder: string): Location {
    if (api.kind === "TOKEN") {
      return { env, api: api.slug, refusal: notFound(`"${api.slug}" is served at ${new URL(request.url).origin}/gw/${env.slug}/oauth2/token.`) };
    }
    let version: GatewayVersion | undefined;
    try {
      version = selectVersion(api.versions, remainder);
    } catch (error) {
      if (error instanceof ProblemError) return { env, api: api.slug, refusal: error };
      throw error;
    }
    if (api.kind === "PROXY") {
      const route = proxiedRoute(version, remainder);
      return { env, api: api.slug, route, at: { kind: "proxied", env, api, version, remainder, route } };
    }
    const table = routeTables.get(api.kind);
    const operation = table ? matchBuiltIn(table, request.method, remainder) : notFound(`The API "${api.slug}" is not served by this gateway.`);
    return { env, api: api.slug, at: { kind: "built-in", env, api, version, remainder, operation } };
  }

  function locateIn(view: DirectoryView, request: IncomingRequest, target: Target): Location {
    const env = view.environment(target.envSlug);
    if (!env) return { refusal: notFound(`There is no environment "${target.envSlug}". ${environmentList(view)}`) };
    const servicePath = `${target.apiSlug}${target.remainder}`;
    if (target.apiSlug === "oauth2" || target.apiSlug === ".well-known") {
      // Usage is charted per catalog API, and the token endpoints are the environment's token API.
      const api = view.apis(env.id).find((each) => each.kind === "TOKEN")?.slug ?? "token-service";
      if (!isTokenServicePath(servicePath)) return { env, api, refusal: notFound(`The token service of "${env.slug}" has no endpoint /${servicePath}.`) };
      return { env, api, tokenService: true, route: `/${servicePath}`, at: { kind: "token-service", env, servicePath } };
    }
    const api = target.apiSlug ? view.api(env.id, target.apiSlug) : undefined;
    if (!api) {
      const missing = target.apiSlug ? `There is no API "${target.apiSlug}" in environment "${env.slug}".` : `Name an API: /gw/${env.slug}/{api}/...`;
      return { env, refusal: notFound(`${missing} ${apiList(env, view.apis(env.id))}`) };
    }
    return locateInApi(request, env, api, target.remainder);
  }

  return function locate(request, path) {
    const notServed = methodNotServed(request.method);
    if (notServed) return { refusal: notServed };
    const target = parseTarget(path);
    const view = directory.view();
    if (view instanceof Promise) return view.then((ready) => (target ? locateIn(ready, request, target) : unlocated(ready)));
    return target ? locateIn(view, request, target) : unlocated(view);
  };
}

/** The refusal of a path outside `/gw/{environment}/{api}/...`, which lists where a caller can go instead. */
function unlocated(view: DirectoryView): Location {
  return { refusal: notFound(`Gateway URLs look like /gw/{environment}/{api}/... ${environmentList(view)}`) };
}
