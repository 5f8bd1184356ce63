import { Agent, type Dispatcher, errors } from "undici";
import { connectionOptions, isConnectionSpecific } from "../http/hop-by-hop";
import type { HeaderReader, IncomingRequest, PlainResponse } from "../http/message";
import { problem, type ProblemError } from "../http/problem";
import { type UpstreamAnswer, UpstreamExchange } from "./upstream-exchange";

/**
 * What undici sets itself: `host` from the upstream's origin, and `expect`, which
 * it refuses (Node has already answered the client's 100-continue).
 */
const SET_BY_UNDICI = new Set(["host", "expect"]);

/** Identity the gateway vouches for; whatever the client sent under these names is dropped. */
const IDENTITY = new Set([
  "authorization",
  "x-client-id",
  "x-request-id",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-real-ip",
]);

/** Request fields passed on: all but the connection's own, undici's and the identity the gateway sets. */
function forwardableRequestHeaders(headers: HeaderReader, withBody: boolean): string[] {
  const listed = connectionOptions(headers.get("connection"));
  const result: string[] = [];
  headers.forEach((value, name) => {
    if (isConnectionSpecific(name, listed) || SET_BY_UNDICI.has(name) || IDENTITY.has(name)) return;
    // A length without the body it measures (a GET that declared one) would not match what is sent.
    if (name === "content-length" && !withBody) return;
    result.push(name, value);
  });
  return result;
}

/** Response fields passed on as undici parsed them: repeated fields, Set-Cookie among them, stay separate. */
function forwardableResponseHeaders(headers: UpstreamAnswer["headers"]): Record<string, string | string[]> {
  const connection = headers.connection;
  const listed = connectionOptions(Array.isArray(connection) ? connection.join(",") : connection);
  const result: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !isConnectionSpecific(name, listed)) result[name] = value;
  }
  return result;
}

function quoted(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** RFC 7239 §6: an IPv6 node is bracketed, and every node with a colon is quoted. */
function forwardedNode(address: string): string {
  return address.includes(":") ? quoted(`[${address}]`) : address;
}

export type ProxyCall = {
  request: IncomingRequest;
  url: URL;
  upstreamUrl: string;
  /** the path after `/gw/{env}/{api}` */
  remainder: string;
  /** the authenticated client; null for a public API, whose calls carry no identity */
  clientId: string | null;
  /** the caller's address, as the trusted proxies report it */
  clientAddress: string;
  requestId: string;
};

type UpstreamBase = { origin: string; path: string };

/** The base URL's path, then the remainder and the query; an empty path is the root. */
function upstreamPath(base: UpstreamBase, remainder: string, search: string): string {
  const path = base.path + remainder;
  return (path === "" ? "/" : path) + search;
}

const TIMED_OUT = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

function upstreamFailure(error: unknown, timeoutMs: number): ProblemError {
  if (error instanceof errors.UndiciError && TIMED_OUT.has(error.code)) {
    return problem("upstream-timeout", { detail: `The upstream service did not answer within ${timeoutMs} ms.` });
  }
  return problem("upstream-unreachable", { detail: "The upstream service could not be reached." });
}

export type Upstreams = {
  /**
   * Streams the request to the environment's upstream and its answer back, bytes
   * as they are: nothing is decoded, so Content-Encoding stays true. No response
   * headers within the timeout is 504; a refused or broken connection is 502; a
   * body that stays silent for the timeout is cut off.
   */
  forward(call: ProxyCall): Promise<PlainResponse>;
  close(): Promise<void>;
};

/**
 * One undici agent for every upstream: a pool of kept-alive connections per origin.
 * The timeout is undici's own socket timers (headers, then silence between body
 * chunks), so no request carries an AbortController (docs/decisions/014).
 */
export function createUpstreams(input: { timeoutMs: number }): Upstreams {
  const { timeoutMs } = input;
  const agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } });
  const bases = new Map<string, UpstreamBase>();

  function baseOf(upstreamUrl: string): UpstreamBase {
    let base = bases.get(upstreamUrl);
    if (!base) {
      const parsed = new URL(upstreamUrl);
      base = { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, "") };
      bases.set(upstreamUrl, base);
    }
    return base;
  }

  return {
    async forward(call) {
      const { request, url } = call;
      const base = baseOf(call.upstreamUrl);
      const body = request.method === "GET" || request.method === "HEAD" ? null : (request.bodyChunks?.() ?? request.body);
      const headers = forwardableRequestHeaders(request.headers, body !== null);
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
      const answer = await new Promise<UpstreamAnswer>((resolve, reject) => {
        agent.dispatch(
          {
            origin: base.origin,
            path: upstreamPath(base, call.remainder, url.search),
            method: request.method as Dispatcher.HttpMethod,
            headers,
            // undici pipes a Node stream with backpressure, and reads any other async iterable.
            body: body as Dispatcher.DispatchOptions["body"],
          },
          new UpstreamExchange(resolve, (error) => reject(upstreamFailure(error, timeoutMs))),
        );
      });
      return { status: answer.statusCode, headers: forwardableResponseHeaders(answer.headers), body: answer.body };
    },
    close: () => agent.close(),
  };
}
