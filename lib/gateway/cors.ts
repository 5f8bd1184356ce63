import type { IncomingRequest, PlainResponse } from "../http/message";

/** What the portal's "try it" sends: every method the gateway serves, and the request headers its APIs read. */
const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";
const ALLOWED_HEADERS = "Authorization, DPoP, X-API-Key, Content-Type, If-Match, If-None-Match, X-Request-Id, Traceparent, Tracestate";
/** The answer's headers a client reads, beyond the ones every browser exposes. */
const EXPOSED_HEADERS =
  "RateLimit, RateLimit-Policy, Retry-After, ETag, Deprecation, Sunset, Link, Location, WWW-Authenticate, DPoP-Nonce, X-Request-Id, Traceparent";
const PREFLIGHT_MAX_AGE_SECONDS = "600";

export type Cors = {
  /** the answer to a preflight from the portal; undefined for every other request */
  preflight(request: IncomingRequest): PlainResponse | undefined;
  /** lets the portal's script read `response`, and tells caches that it depends on `Origin` */
  expose(request: IncomingRequest, response: PlainResponse): void;
};

function addVaryOrigin(headers: PlainResponse["headers"]): void {
  const vary = headers.vary;
  const names = (Array.isArray(vary) ? vary.join(",") : (vary ?? "")).split(",").map((name) => name.trim().toLowerCase());
  if (names.includes("origin") || names.includes("*")) return;
  headers.vary = vary ? `${Array.isArray(vary) ? vary.join(", ") : vary}, Origin` : "Origin";
}

/**
 * CORS for the portal's origin alone, for a gateway served from an origin of its own
 * (`GATEWAY_PUBLIC_URL`), so that the Reference's "try it" can call it; every other origin
 * gets no CORS header from the gateway. Never with credentials: the gateway authenticates by
 * bearer token, and the portal's "try it" sends no cookies (decision 045).
 */
export function createPortalCors(portalOrigin: string): Cors {
  const fromPortal = (request: IncomingRequest) => request.headers.get("origin") === portalOrigin;
  return {
    preflight(request) {
      if (request.method !== "OPTIONS" || request.headers.get("access-control-request-method") === null || !fromPortal(request)) return undefined;
      return {
        status: 204,
        headers: {
          "access-control-allow-origin": portalOrigin,
          "access-control-allow-methods": ALLOWED_METHODS,
          "access-control-allow-headers": ALLOWED_HEADERS,
          "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
          vary: "Origin",
        },
        body: null,
      };
    },
    expose(request, response) {
      addVaryOrigin(response.headers);
      if (!fromPortal(request)) return;
      delete response.headers["access-control-allow-credentials"];
      response.headers["access-control-allow-origin"] = portalOrigin;
      response.headers["access-control-expose-headers"] = EXPOSED_HEADERS;
    },
  };
}
