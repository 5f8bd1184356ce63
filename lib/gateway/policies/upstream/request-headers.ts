import type { HeaderReader, IncomingRequest } from "../../../http/message";
import { connectionOptions, isConnectionSpecific } from "../../../http/hop-by-hop";
import type { TargetState } from "../../../upstreams/target-state";
import { withoutPortalCookies } from "./cookies";

/**
 * What undici sets itself: `host` from the upstream's origin, and `expect`, which
 * it refuses (Node has already answered the client's 100-continue).
 */
const SET_BY_UNDICI = new Set(["host", "expect"]);

/**
 * Identity the gateway vouches for, and the trace context it sets; whatever the
 * client sent under these names is dropped.
 */
const IDENTITY = new Set([
  "authorization",
  "x-api-key",
  // a DPoP proof is for this gateway's URL only, and proves nothing to the upstream
  "dpop",
  "traceparent",
  "tracestate",
  "x-client-id",
  "x-request-id",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-real-ip",
]);

/**
 * Request fields passed on: all but the connection's own, undici's, the identity the gateway sets, and any
 * name with `_`, which CGI, WSGI and Rack read as `-` (`X_Client_Id` as `HTTP_X_CLIENT_ID`), as nginx drops them.
 * The portal's cookies are left out of Cookie: they would hand the caller's portal session to the upstream.
 */
function forwardableRequestHeaders(headers: HeaderReader, withBody: boolean): string[] {
  const listed = connectionOptions(headers.get("connection"));
  const result: string[] = [];
  headers.forEach((value, name) => {
    if (isConnectionSpecific(name, listed) || SET_BY_UNDICI.has(name) || IDENTITY.has(name) || name.includes("_")) return;
    // A length without the body it measures (a GET that declared one) would not match what is sent.
    if (name === "content-length" && !withBody) return;
    if (name === "cookie") {
      const kept = withoutPortalCookies(value);
      if (kept !== null) result.push(name, kept);
      return;
    }
    result.push(name, value);
  });
  return result;
}

function quoted(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** RFC 7239 §6: an IPv6 node is bracketed, and every node with a colon is quoted. */
function forwardedNode(address: string): string {
  return address.includes(":") ? quoted(`[${address}]`) : address;
}

/** The request as the client sent it, and the identity the gateway vouches for upstream. */
export type UpstreamIdentity = {
  request: IncomingRequest;
  url: URL;
  /** the authenticated client; null for a public API, whose calls carry no identity */
  clientId: string | null;
  /** the caller's address, as the trusted proxies report it */
  clientAddress: string;
  requestId: string;
};

/**
 * The fields an upstream is sent: the client's that may be forwarded, then the identity the
 * gateway vouches for (client id, request id, the client's address); the trace context is the caller's to add.
 */
export function upstreamRequestHeaders(call: UpstreamIdentity, withBody: boolean): string[] {
  const { url } = call;
  const headers = forwardableRequestHeaders(call.request.headers, withBody);
  if (call.clientId) headers.push("x-client-id", call.clientId);
  // Only the address TRUSTED_PROXIES let us believe; hops a client invented stay behind.
  headers.push(
    "x-request-id",
    call.requestId,
    "forwarded",
    `for=${forwardedNode(call.clientAddress)};host=${quoted(url.host)};proto=${url.protocol.slice(0, -1)}`,
    "x-forwarded-for",
    call.clientAddress,
  );
  return headers;
}

/** The target's base path, then the remainder and the query; an empty path is the root. */
export function upstreamPath(target: TargetState, remainder: string, search: string): string {
  const path = target.basePath + remainder;
  return (path === "" ? "/" : path) + search;
}
