import type { HeaderReader, IncomingRequest } from "../../../http/message";
import { problem } from "../../../http/problem";

const ACCESS_TOKEN = "access_token";

function parameterName(pair: string): string | undefined {
  const name = pair.split("=", 1)[0]!.replaceAll("+", " ");
  try {
    return decodeURIComponent(name);
  } catch {
    return undefined;
  }
}

function parameterValue(pair: string): string {
  const at = pair.indexOf("=");
  const value = at === -1 ? "" : pair.slice(at + 1).replaceAll("+", " ");
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The request's headers, with `Authorization` standing for the token the query carried. */
class HeadersWithBearer implements HeaderReader {
  constructor(
    private readonly headers: HeaderReader,
    private readonly authorization: string,
  ) {}

  get(name: string): string | null {
    return name.toLowerCase() === "authorization" ? this.authorization : this.headers.get(name);
  }

  forEach(callback: (value: string, name: string) => void): void {
    this.headers.forEach(callback);
    callback(this.authorization, "authorization");
  }
}

/** The handshake as admission reads it, and the query the upstream is sent. */
export type HandshakeToken = { request: IncomingRequest; upstreamSearch: string };

/**
 * RFC 6750 §2.3: a browser cannot set `Authorization` on a WebSocket, so its handshake may
 * carry the token as the `access_token` query parameter, which admission then reads as a
 * bearer token. The parameter is taken out of the query the upstream sees; the other
 * parameters pass as the client encoded them. A token sent twice (header and query, or the
 * parameter repeated) is refused, as §2 allows one method per request.
 */
export function handshakeToken(request: IncomingRequest): HandshakeToken {
  const url = new URL(request.url);
  if (url.search === "") return { request, upstreamSearch: "" };
  const pairs = url.search.slice(1).split("&");
  const tokens = pairs.filter((pair) => parameterName(pair) === ACCESS_TOKEN);
  if (tokens.length === 0) return { request, upstreamSearch: url.search };
  const refusal = (message: string) =>
    problem("validation-failed", { detail: `The access_token parameter ${message}.`, errors: [{ in: "query", field: ACCESS_TOKEN, message }] });
  if (tokens.length > 1) throw refusal("must be sent once");
  if (request.headers.get("authorization") !== null) throw refusal("must not be sent beside an Authorization header");
  const rest = pairs.filter((pair) => parameterName(pair) !== ACCESS_TOKEN);
  const upstreamSearch = rest.length === 0 ? "" : `?${rest.join("&")}`;
  const headers = new HeadersWithBearer(request.headers, `Bearer ${parameterValue(tokens[0]!)}`);
  // The token leaves the URL here, so that nothing after admission can log or pass it on.
  const withoutToken = `${url.origin}${url.pathname}${upstreamSearch}`;
  return { request: { method: request.method, url: withoutToken, headers, body: null, remoteAddress: request.remoteAddress }, upstreamSearch };
}
