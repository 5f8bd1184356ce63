import "server-only";
import type { Logger } from "pino";
import { ProblemError, problemResponse, toProblem } from "../http/problem";
import { requestIdFrom } from "../http/request-id";
import type { Catalog } from "./catalog";

export type GatewayDeps = { catalog: Catalog; log: Logger };

/** Segments under `/gw/{env}` that belong to the token service, not to an API. */
const TOKEN_SERVICE_SEGMENTS = new Set(["oauth2", ".well-known"]);

type Target = { envSlug: string; apiSlug: string };

/** `/gw/{env}/{api}/...`, and RFC 8414's `/.well-known/oauth-authorization-server/gw/{env}`. */
function parseTarget(pathname: string): Target | undefined {
  const wellKnown = /^\/\.well-known\/oauth-authorization-server\/gw\/([^/]+)\/?$/.exec(pathname);
  if (wellKnown?.[1]) return { envSlug: decodeURIComponent(wellKnown[1]), apiSlug: ".well-known" };
  const match = /^\/gw\/([^/]+)(?:\/([^/]*))?/.exec(pathname);
  if (!match?.[1]) return undefined;
  return { envSlug: decodeURIComponent(match[1]), apiSlug: decodeURIComponent(match[2] ?? "") };
}

function notFound(detail: string): ProblemError {
  return new ProblemError(404, "not-found", "Not Found", { detail });
}

/** The gateway: one Fetch-API function, free of React and Next. */
export function createGateway({ catalog, log }: GatewayDeps): (request: Request) => Promise<Response> {
  async function route(request: Request, url: URL): Promise<Response> {
    const target = parseTarget(url.pathname);
    if (!target) throw notFound("Gateway URLs look like /gw/{environment}/{api}/...");
    const env = await catalog.environment(target.envSlug);
    if (!env) throw notFound(`There is no environment "${target.envSlug}".`);
    if (TOKEN_SERVICE_SEGMENTS.has(target.apiSlug)) throw notFound(`The token service of "${env.slug}" has no such endpoint.`);
    const api = target.apiSlug ? await catalog.api(env.id, target.apiSlug) : undefined;
    if (!api) throw notFound(`There is no API "${target.apiSlug}" in environment "${env.slug}".`);
    throw new ProblemError(501, "not-implemented", "Not Implemented", { detail: `The API "${api.slug}" is not served yet.` });
  }

  return async function handleGatewayRequest(request: Request): Promise<Response> {
    const startedAt = performance.now();
    const requestId = requestIdFrom(request.headers);
    const url = new URL(request.url);
    let response: Response;
    try {
      response = await route(request, url);
      response.headers.set("x-request-id", requestId);
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500) log.error({ err: error, requestId }, "gateway request failed");
      response = problemResponse(problem, { instance: url.pathname, requestId });
    }
    log.info({
      requestId,
      method: request.method,
      route: url.pathname,
      status: response.status,
      latencyMs: Math.round((performance.now() - startedAt) * 100) / 100,
    });
    return response;
  };
}
