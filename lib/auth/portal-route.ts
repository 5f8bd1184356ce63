import "server-only";
import type { Role } from "../db";
import { readJson } from "../http/json-body";
import { problemResponse, toProblem } from "../http/problem";
import { requestIdFrom } from "../http/request-id";
import { log } from "../log";
import { assertSameOrigin } from "./same-origin";
import type { PortalUser } from "../actors/portal-user";
import { apiUser, currentUser } from "./session";

type RouteContext = { params: Promise<Record<string, string>> };
/**
 * The portal's forms send OpenAPI documents of up to 2 MB as JSON strings, which escaping
 * makes longer; past this a body is refused with 413 before it is parsed.
 */
export const PORTAL_MAX_BODY_BYTES = 5_000_000;

type Input<U> = {
  request: Request;
  user: U;
  params: Record<string, string>;
  /** the body as JSON, read as /api/v1 reads it (413, 400 "is not valid JSON"); null when there is none */
  body: () => Promise<unknown>;
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function wrap<U>(resolveUser: () => Promise<U>, handler: (input: Input<U>) => Promise<Response>) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    const requestId = requestIdFrom(request.headers);
    try {
      if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request);
      const user = await resolveUser();
      const body = async () => (await readJson(request, PORTAL_MAX_BODY_BYTES)) ?? null;
      const response = await handler({ request, user, params: await context.params, body });
      response.headers.set("cache-control", "no-store");
      return response;
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500) log.error({ err: error, requestId }, "portal route failed");
      return problemResponse(problem, { instance: new URL(request.url).pathname, requestId });
    }
  };
}

/**
 * The wrapper of the portal's JSON routes: cross-site check on mutations,
 * session and role from the server, errors as problem+json.
 */
export function portalRoute(handler: (input: Input<PortalUser>) => Promise<Response>, options: { role?: Role } = {}) {
  return wrap(() => apiUser(options.role), handler);
}

/** The same for routes that also serve visitors who are not signed in. */
export function publicPortalRoute(handler: (input: Input<PortalUser | null>) => Promise<Response>) {
  return wrap(currentUser, handler);
}

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status });
}
