import { connectionOptions, isConnectionSpecific } from "../../../http/hop-by-hop";
import { problem, type ProblemError } from "../../../http/problem";
import { confinedSetCookie } from "./cookies";
import { gatewayLocation } from "./location";

/**
 * What every proxied answer carries unless its upstream's policy says otherwise: the
 * gateway shares the portal's origin, so an upstream's HTML must run as an opaque origin
 * with nothing to load, or its script could act as the signed-in user.
 */
export const DEFAULT_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'";

type UpstreamHeaders = Record<string, string | string[] | undefined>;

export type AnswerContext = {
  /** `/gw/{env}/{api}`: where the API's paths live for the client */
  apiPath: string;
  targetOrigin: string;
  /** the target's base path, without its trailing slash */
  basePath: string;
  /** the URL the request was sent to, which relative references resolve against */
  upstreamUrl: string;
  /** the policy's `contentSecurityPolicy`: unset for the default, false for none */
  contentSecurityPolicy: string | false | undefined;
};

export type ClientHeaders = { headers: Record<string, string | string[]>; droppedCookies: number };

function single(value: string | string[]): string {
  return Array.isArray(value) ? value.join(", ") : value;
}

function withAdded(existing: string | string[] | undefined, added: string): string | string[] {
  if (existing === undefined) return added;
  return [...(Array.isArray(existing) ? existing : [existing]), added];
}

/**
 * The answer's fields as the client gets them: the connection's own left out, repeated
 * fields (Set-Cookie among them) kept apart, cookies confined to the API, `Location` and
 * `Content-Location` mapped onto the gateway, and the gateway's Content-Security-Policy
 * and Cross-Origin-Resource-Policy set. A `Location` that cannot be mapped throws
 * `upstream-invalid-response`; a `Content-Location` that cannot is left out.
 */
export function clientHeaders(headers: UpstreamHeaders, context: AnswerContext): ClientHeaders {
  const connection = headers.connection;
  const listed = connectionOptions(Array.isArray(connection) ? connection.join(",") : connection);
  const result: Record<string, string | string[]> = {};
  let droppedCookies = 0;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || isConnectionSpecific(name, listed)) continue;
    if (name === "set-cookie") {
      const cookies: string[] = [];
      for (const each of Array.isArray(value) ? value : [value]) {
        const confined = confinedSetCookie(each, `${context.apiPath}/`);
        if (confined === null) droppedCookies++;
        else cookies.push(confined);
      }
      if (cookies.length > 0) result[name] = cookies;
    } else if (name === "location" || name === "content-location") {
      const mapped = gatewayLocation(single(value), context);
      if (mapped !== null) result[name] = mapped;
      else if (name === "location") throw refusedLocation();
    } else result[name] = value;
  }
  const policy = context.contentSecurityPolicy ?? DEFAULT_CONTENT_SECURITY_POLICY;
  // An upstream's own policy stays beside the gateway's: a browser enforces both.
  if (policy !== false) result["content-security-policy"] = withAdded(result["content-security-policy"], policy);
  result["cross-origin-resource-policy"] = "same-origin";
  return { headers: result, droppedCookies };
}

function refusedLocation(): ProblemError {
  return problem("upstream-invalid-response", {
    detail: "The upstream service redirected to an address the gateway does not pass on (another host without its scheme, or outside the API).",
  });
}
