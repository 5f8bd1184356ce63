import { connectionOptions, isConnectionSpecific } from "../http/hop-by-hop";
import type { HeaderReader, IncomingRequest, PlainResponse } from "../http/message";
import { problem } from "../http/problem";

/** What fetch sets itself. */
const SET_BY_FETCH = new Set(["host", "content-length", "expect"]);

/** fetch has already decoded the upstream body, so its encoding no longer applies. */
const DECODED = new Set(["content-encoding"]);

/** Identity the gateway vouches for; whatever the client sent under these names is dropped. */
const IDENTITY = new Set(["authorization", "x-client-id", "x-request-id", "forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"]);

function isForwardable(name: string, listed: Set<string>, extraDrops: Set<string>): boolean {
  return !isConnectionSpecific(name, listed) && !SET_BY_FETCH.has(name) && !extraDrops.has(name);
}

function forwardableRequestHeaders(headers: HeaderReader): Headers {
  const listed = connectionOptions(headers.get("connection"));
  const result = new Headers();
  headers.forEach((value, name) => {
    if (isForwardable(name, listed, IDENTITY)) result.append(name, value);
  });
  return result;
}

/** Set-Cookie stays one field per cookie; Fetch's `forEach` would join them into one. */
function forwardableResponseHeaders(headers: Headers): Record<string, string | string[]> {
  const listed = connectionOptions(headers.get("connection"));
  const result: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie" && isForwardable(name, listed, DECODED)) result[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0 && isForwardable("set-cookie", listed, DECODED)) result["set-cookie"] = cookies;
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
  timeoutMs: number;
};

export function upstreamTarget(upstreamUrl: string, remainder: string, search: string): string {
  return `${upstreamUrl.replace(/\/+$/, "")}${remainder}${search}`;
}

/**
 * Streams the request to the environment's upstream and its answer back.
 * No response headers within the timeout is 504; a refused or broken
 * connection is 502; a body that stalls for the timeout is cut off.
 */
export async function proxyRequest(call: ProxyCall): Promise<PlainResponse> {
  const { request, url } = call;
  const headers = forwardableRequestHeaders(request.headers);
  if (call.clientId) headers.set("x-client-id", call.clientId);
  headers.set("x-request-id", call.requestId);
  // Only the address TRUSTED_PROXIES let us believe; hops a client invented stay behind.
  headers.set("forwarded", `for=${forwardedNode(call.clientAddress)};host=${quoted(url.host)};proto=${url.protocol.replace(":", "")}`);
  headers.set("x-forwarded-for", call.clientAddress);
  // fetch would decompress silently and leave Content-Encoding wrong for our client.
  headers.set("accept-encoding", "identity");
  const requestBody = request.method === "GET" || request.method === "HEAD" ? null : request.body;
  const abort = new AbortController();
  let timer = setTimeout(() => abort.abort(), call.timeoutMs);
  let upstream: Response;
  try {
    upstream = await fetch(upstreamTarget(call.upstreamUrl, call.remainder, url.search), {
      method: request.method,
      headers,
      body: requestBody ?? undefined,
      redirect: "manual",
      signal: abort.signal,
      ...(requestBody ? { duplex: "half" } : {}),
    } as RequestInit);
  } catch {
    clearTimeout(timer);
    if (abort.signal.aborted) {
      throw problem("upstream-timeout", { detail: `The upstream service did not answer within ${call.timeoutMs} ms.` });
    }
    throw problem("upstream-unreachable", { detail: "The upstream service could not be reached." });
  }
  clearTimeout(timer);
  // Past the headers, the timeout applies to silence between chunks, so long downloads are not cut off.
  const idle = new TransformStream<Uint8Array, Uint8Array>({
    start() {
      timer = setTimeout(() => abort.abort(), call.timeoutMs);
    },
    transform(chunk, controller) {
      timer.refresh();
      controller.enqueue(chunk);
    },
    flush() {
      clearTimeout(timer);
    },
  });
  const body = upstream.body ? upstream.body.pipeThrough(idle) : null;
  if (!body) clearTimeout(timer);
  return { status: upstream.status, headers: forwardableResponseHeaders(upstream.headers), body };
}
