import type { Logger } from "pino";
import { Agent, type Dispatcher, errors } from "undici";
import { connectionOptions, isConnectionSpecific } from "../http/hop-by-hop";
import type { HeaderReader, IncomingRequest, PlainResponse } from "../http/message";
import { problem, ProblemError } from "../http/problem";
import type { GatewayMetrics } from "../metrics/gateway-metrics";
import { createHealthProbe } from "../upstreams/health-probe";
import type { TargetState } from "../upstreams/target-state";
import type { Upstream, UpstreamLimits } from "../upstreams/upstream";
import { createUpstreamSet, type UpstreamSet } from "../upstreams/upstream-set";
import { bufferedBody, type RequestBody, requestBody } from "./request-body";
import { type RequestTrace, upstreamTraceparent } from "./request-trace";
import { clientHeaders } from "./upstream-answer-headers";
import { withoutPortalCookies } from "./upstream-cookies";
import { InvalidStatus, type UpstreamAnswer, UpstreamExchange } from "./upstream-exchange";

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

export type ProxyCall = {
  request: IncomingRequest;
  url: URL;
  /** the environment's and the API's slugs, which name the upstream */
  env: string;
  api: string;
  /** the path after `/gw/{env}/{api}` */
  remainder: string;
  /** the authenticated client; null for a public API, whose calls carry no identity */
  clientId: string | null;
  /** the caller's address, as the trusted proxies report it */
  clientAddress: string;
  requestId: string;
  trace: RequestTrace;
  /** the client's body, when a stage before the proxy has read it whole */
  body?: Uint8Array;
};

/**
 * The fields an upstream is sent: the client's that may be forwarded, then the identity the
 * gateway vouches for (client id, request id, the client's address); the trace context is the caller's to add.
 */
export function upstreamRequestHeaders(call: Pick<ProxyCall, "request" | "url" | "clientId" | "clientAddress" | "requestId">, withBody: boolean): string[] {
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

/** Methods whose request may be sent again without changing the result (RFC 9110 §9.2.2), less TRACE, which the gateway does not serve. */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
/** Failures that happen before the target saw the request or before it answered a byte: another target may take it. */
export const NOT_ANSWERED = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function upstreamFailure(error: unknown, limits: UpstreamLimits): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof InvalidStatus) {
    return problem("upstream-invalid-response", { detail: `The upstream service answered with status ${error.statusCode}, which HTTP does not define.` });
  }
  if (error instanceof errors.UndiciError && error.code === "UND_ERR_HEADERS_TIMEOUT") {
    return problem("upstream-timeout", { detail: `The upstream service did not answer within ${limits.responseMs} ms.` });
  }
  if (error instanceof errors.UndiciError && error.code === "UND_ERR_CONNECT_TIMEOUT") {
    return problem("upstream-timeout", { detail: `The upstream service did not accept a connection within ${limits.connectMs} ms.` });
  }
  return problem("upstream-unreachable", { detail: "The upstream service could not be reached." });
}

/**
 * The refusal for a call whose client, not its target, failed it: the client closed
 * the connection mid-body (499), the parser refused the rest of the body (the 400 or
 * 408 it answered), or the response timeout ran out while the body waited for the
 * client's bytes (408). Null when the target is to answer for the failure.
 */
function clientFault(request: IncomingRequest, body: RequestBody | null, error: unknown, limits: UpstreamLimits): ProblemError | null {
  if (!body) return null;
  if (body.clientFailed()) {
    return request.bodyRefusal?.() ?? problem("client-closed-request", { detail: "The client closed the connection before its request body arrived whole." });
  }
  if (body.waitingForClient() && error instanceof errors.UndiciError && error.code === "UND_ERR_HEADERS_TIMEOUT") {
    return (
      request.bodyRefusal?.() ??
      problem("request-timeout", { detail: `The request body was still arriving after ${limits.responseMs} ms, so the gateway stopped waiting for it.` })
    );
  }
  return null;
}

export function unavailable(upstream: Upstream, now: number): ProblemError {
  const seconds = upstream.retryAfterSeconds(now);
  return problem("upstream-unavailable", {
    detail: `No target of "${upstream.api}" in "${upstream.env}" can take calls now; one may in ${seconds} s.`,
    headers: { "retry-after": String(seconds) },
  });
}

export type Upstreams = {
  /**
   * Streams the request to one of the upstream's targets and its answer back, bytes
   * as they are: nothing is decoded, so Content-Encoding stays true. An idempotent
   * request that no target answered is tried on another, up to the upstream's
   * retries. No target able to take it is 503; no response headers within the
   * timeout is 504; a refused or broken connection is 502; a body that stays silent
   * for the idle timeout is cut off.
   */
  forward(call: ProxyCall): Promise<PlainResponse>;
  /** the upstreams of the registered APIs, their targets and their health */
  readonly set: UpstreamSet;
  close(): Promise<void>;
};

/**
 * One undici agent per connect timeout, each a pool of kept-alive connections per
 * origin. The other timeouts are undici's own socket timers (headers, then silence
 * between body chunks), so no request carries an AbortController (docs/decisions/014).
 */
export function createUpstreams(input: { timeoutMs: number; log: Logger; metrics: GatewayMetrics }): Upstreams {
  const { timeoutMs, log, metrics } = input;
  const agents = new Map<number, Agent>();
  const agentFor = (connectMs: number) => {
    let agent = agents.get(connectMs);
    if (!agent) agents.set(connectMs, (agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: connectMs } })));
    return agent;
  };
  const set = createUpstreamSet({ log, probe: createHealthProbe(agentFor(timeoutMs)), defaultTimeoutMs: timeoutMs });

  function send(call: ProxyCall, target: TargetState, limits: UpstreamLimits, headers: string[], body: RequestBody | null): Promise<UpstreamAnswer> {
    const { request, url } = call;
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      agentFor(limits.connectMs).dispatch(
        {
          origin: target.origin,
          path: upstreamPath(target, call.remainder, url.search),
          method: request.method as Dispatcher.HttpMethod,
          headers,
          headersTimeout: limits.responseMs,
          bodyTimeout: limits.idleMs,
          // undici pipes a Node stream with backpressure, and reads any other async iterable.
          body: body?.source as Dispatcher.DispatchOptions["body"],
        },
        new UpstreamExchange(resolve, reject),
      );
    });
  }

  return {
    set,
    async forward(call) {
      const { request, url } = call;
      const upstream = set.get(call.env, call.api);
      if (!upstream) throw problem("not-found", { detail: `The API "${call.api}" has no upstream in "${call.env}".` });
      const { policy, limits } = upstream;
      const chunks =
        request.method === "GET" || request.method === "HEAD" ? null : (request.bodyChunks?.() ?? (request.body as AsyncIterable<Uint8Array> | null));
      const retries = IDEMPOTENT.has(request.method) ? policy.retries : 0;
      const body = call.body
        ? bufferedBody(call.body)
        : chunks && requestBody(chunks, { declaredLength: request.headers.get("content-length"), maxBytes: policy.maxRequestBodyBytes });
      const headers = upstreamRequestHeaders(call, body !== null);
      const { trace } = call;
      // Each attempt names its own span as parent, so its traceparent is set as it is sent.
      const traceparentAt = headers.push("traceparent", "") - 1;
      if (trace.traceState !== null) headers.push("tracestate", trace.traceState);
      const tried = new Set<TargetState>();
      let unanswered: unknown;
      for (;;) {
        const target = upstream.pick(Date.now(), tried);
        if (!target) throw unanswered === undefined ? unavailable(upstream, Date.now()) : upstreamFailure(unanswered, limits);
        tried.add(target);
        target.begin();
        const span = trace.span?.upstreamCall({
          method: request.method,
          origin: target.origin,
          path: upstreamPath(target, call.remainder, ""),
          attempt: tried.size - 1,
        });
        headers[traceparentAt] = upstreamTraceparent(trace, span);
        let answer: UpstreamAnswer;
        try {
          answer = await send(call, target, limits, headers, body);
        } catch (error) {
          span?.failed(error instanceof ProblemError ? error.code : (errorCode(error) ?? "_OTHER"));
          const fault = error instanceof ProblemError ? error : clientFault(request, body, error, limits);
          if (fault) {
            target.released();
            throw fault;
          }
          target.failed(Date.now());
          if (tried.size > retries || !NOT_ANSWERED.has(errorCode(error) ?? "") || body?.started()) throw upstreamFailure(error, limits);
          unanswered = error;
          continue;
        }
        span?.answered(answer.statusCode);
        if (answer.statusCode >= 500) target.failed(Date.now());
        else target.succeeded(Date.now());
        let passed: ReturnType<typeof clientHeaders>;
        try {
          passed = clientHeaders(answer.headers, {
            apiPath: `/gw/${call.env}/${call.api}`,
            targetOrigin: target.origin,
            basePath: target.basePath,
            upstreamUrl: target.origin + upstreamPath(target, call.remainder, url.search),
            contentSecurityPolicy: policy.contentSecurityPolicy,
          });
        } catch (error) {
          answer.body.discard();
          throw error;
        }
        if (passed.droppedCookies > 0) metrics.upstreamCookiesDropped(call.env, call.api, passed.droppedCookies);
        // A body the upstream breaks off after its headers is its failure too, though the client has its status.
        void answer.body.ended.then((end) => end === "broken" && target.failed(Date.now()));
        return { status: answer.statusCode, headers: passed.headers, body: answer.body };
      }
    },
    async close() {
      set.close();
      await Promise.all([...agents.values()].map((agent) => agent.close()));
    },
  };
}
