import { ProblemError } from "../http/problem";

/** RFC 9110 §7.6.1 connection-specific fields, plus what fetch sets itself. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "expect",
]);

/** Identity the gateway vouches for; whatever the client sent under these names is dropped. */
const IDENTITY = new Set(["authorization", "x-client-id", "x-request-id", "forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"]);

function connectionListed(headers: Headers): Set<string> {
  return new Set(
    (headers.get("connection") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

function forwardable(headers: Headers, extraDrops: Set<string>): Headers {
  const listed = connectionListed(headers);
  const result = new Headers();
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !listed.has(name) && !extraDrops.has(name)) result.append(name, value);
  });
  return result;
}

function quotedHost(host: string): string {
  return `"${host.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

export type ProxyCall = {
  request: Request;
  url: URL;
  upstreamUrl: string;
  /** the path after `/gw/{env}/{api}` */
  remainder: string;
  /** the authenticated client; null for a public API, whose calls carry no identity */
  clientId: string | null;
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
export async function proxyRequest(call: ProxyCall): Promise<Response> {
  const { request, url } = call;
  const headers = forwardable(request.headers, IDENTITY);
  if (call.clientId) headers.set("x-client-id", call.clientId);
  headers.set("x-request-id", call.requestId);
  headers.set("forwarded", `host=${quotedHost(url.host)};proto=${url.protocol.replace(":", "")}`);
  // fetch would decompress silently and leave Content-Encoding wrong for our client.
  headers.set("accept-encoding", "identity");
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== null;
  const abort = new AbortController();
  let timer = setTimeout(() => abort.abort(), call.timeoutMs);
  let upstream: Response;
  try {
    upstream = await fetch(upstreamTarget(call.upstreamUrl, call.remainder, url.search), {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      redirect: "manual",
      signal: abort.signal,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
  } catch {
    clearTimeout(timer);
    if (abort.signal.aborted) {
      throw new ProblemError(504, "upstream-timeout", "Gateway Timeout", { detail: `The upstream service did not answer within ${call.timeoutMs} ms.` });
    }
    throw new ProblemError(502, "upstream-unreachable", "Bad Gateway", { detail: "The upstream service could not be reached." });
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
  const responseHeaders = forwardable(upstream.headers, new Set(["content-encoding"]));
  const body = upstream.body ? upstream.body.pipeThrough(idle) : null;
  if (!body) clearTimeout(timer);
  return new Response(body, { status: upstream.status, statusText: upstream.statusText, headers: responseHeaders });
}
