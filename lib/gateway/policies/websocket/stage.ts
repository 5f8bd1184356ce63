import "server-only";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import type WebSocket from "ws";
import { WebSocketServer } from "ws";
import type { IncomingRequest } from "../../../http/message";
import { nodeRequest } from "../../../http/node-message";
import { problem, ProblemError, problemPlainResponse, toProblem } from "../../../http/problem";
import { rawResponse } from "../../../http/raw-response";
import { requestIdFrom } from "../../../http/request-id";
import type { GatewayMetrics } from "../../../metrics/gateway-metrics";
import type { GatewayTracer } from "../../../tracing/tracer";
import type { UpstreamSet } from "../../../upstreams/upstream-set";
import type { Admission, Outcome } from "../../admission";
import { UPSTREAM_FAILURES } from "../../handler";
import { addDeprecationHeaders } from "../../lifecycle";
import { upstreamRequestHeaders } from "../../proxy";
import type { RequestRecorder } from "../../request-log";
import { type RequestTrace, requestSummary, requestTrace, upstreamTraceparent } from "../../request-trace";
import { policiesFor } from "../policy-set";
import { handshakeToken } from "./access-token-query";
import { checkHandshake } from "./handshake-checks";
import type { WebsocketMetrics } from "./metrics";
import type { OpenConnections } from "./open-connections";
import type { WebsocketPolicy } from "./schema";
import { openTunnel } from "./tunnel";
import { openUpstreamSocket } from "./upstream-socket";

export type WebsocketStageDeps = {
  admit: Admission;
  upstreams: UpstreamSet;
  connections: OpenConnections;
  recorder: RequestRecorder;
  metrics: GatewayMetrics;
  websocketMetrics: WebsocketMetrics;
  /** the caller's address, as the trusted proxies report it */
  addressOf: (request: IncomingRequest) => string;
  log: Logger;
  tracer?: GatewayTracer;
};

/** A WebSocket handshake on a gateway path, as the node:http server hands it over: the request, its connection, and what the client sent past the head. */
export type WebsocketUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, origin: string) => Promise<void>;

function notEnabled(path: string): ProblemError {
  return problem("websocket-not-enabled", {
    detail: `${path} does not take WebSocket connections: no WebSocket policy applies to its route.`,
  });
}

/** The fields of a handshake's refusal: the problem's, the rate limit's but on a 429, and a deprecation's. */
function refusalHeaders(response: ReturnType<typeof problemPlainResponse>, refusal: ProblemError, outcome: Outcome): void {
  if (refusal.status !== 429) Object.assign(response.headers, outcome.headers);
  if (outcome.deprecation) addDeprecationHeaders(response.headers, outcome.deprecation);
}

/** `name: value` lines of extra fields for the 101 answer. */
function headerLines(fields: Record<string, string | string[]>): string[] {
  return Object.entries(fields).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((each) => `${name}: ${each}`));
}

/**
 * The WebSocket policy's stage: a handshake on a gateway path goes through the gateway's
 * admission like any call, is refused 400 `websocket-not-enabled` where no WebSocket
 * policy applies to the route, 429 past the client's connections, then is tunnelled to one
 * of the upstream's targets. Every refusal is a problem document written on the socket.
 * The handshake is counted in the request metrics as it is answered; the connection's
 * request-log row is written when it closes, with its duration and bytes each way.
 */
export function createWebsocketStage(deps: WebsocketStageDeps): WebsocketUpgrade {
  const { admit, connections, recorder, metrics, log } = deps;

  return async function upgrade(req, socket, head, origin) {
    const startedAt = performance.now();
    const at = new Date();
    // A client that leaves mid-handshake must not take the process with it.
    socket.on("error", () => socket.destroy());
    const request = nodeRequest(req, origin);
    const requestId = requestIdFrom(request.headers);
    const trace = requestTrace(request, deps.tracer);
    const path = new URL(request.url).pathname;
    const outcome: Outcome = {};

    const record = (status: number, end: { latencyMs: number; bytesIn?: number; bytesOut?: number }) =>
      recorder.record({
        at,
        requestId,
        traceId: trace.traceId,
        method: "GET",
        path,
        route: outcome.route ?? null,
        status,
        latencyMs: Math.round(end.latencyMs * 100) / 100,
        clientId: outcome.clientId ?? null,
        environment: outcome.env?.slug ?? null,
        api: outcome.api ?? null,
        problem: outcome.problem ?? null,
        bytesIn: end.bytesIn ?? null,
        bytesOut: end.bytesOut ?? null,
      });
    const answered = (status: number) => {
      metrics.request(outcome.env?.slug ?? "", outcome.api ?? "", outcome.route ?? "", status, (performance.now() - startedAt) / 1000);
      trace.span?.end(requestSummary({ method: "GET", path, status, requestId }, outcome));
    };

    let release: (() => void) | undefined;
    try {
      checkHandshake(req);
      const { request: handshake, upstreamSearch } = handshakeToken(request);
      let policy: WebsocketPolicy | undefined;
      const admitted = await admit({
        request: handshake,
        path,
        trace,
        outcome,
        screen: ({ api, route }) => {
          policy = api?.kind === "PROXY" ? policiesFor(api.policies, "GET", route).websocket : undefined;
          if (!policy) throw notEnabled(path);
        },
      });
      if (admitted.kind !== "proxied" || !policy) throw notEnabled(path);
      const { env, api } = admitted;
      const clientAddress = deps.addressOf(request);
      release = connections.reserve(env.id, admitted.caller?.token.clientId ?? `address ${clientAddress}`, policy.maxConnectionsPerClient);
      if (!release) {
        const holder = admitted.caller ? `The client ${admitted.caller.token.clientId}` : `The address ${clientAddress}`;
        throw problem("websocket-connection-limit", {
          detail: `${holder} holds ${policy.maxConnectionsPerClient} open WebSocket connections in "${env.slug}", as many as the policy of "${api.slug}" allows.`,
        });
      }
      const upstream = deps.upstreams.get(env.slug, api.slug);
      if (!upstream) throw problem("not-found", { detail: `The API "${api.slug}" has no upstream in "${env.slug}".` });
      const upstreamHandshake = await openUpstreamSocket({
        upstream,
        remainder: admitted.remainder,
        search: upstreamSearch,
        headers: upstreamHeaders(handshake, trace, { clientId: admitted.caller?.token.clientId ?? null, clientAddress, requestId }),
        protocols: requestedProtocols(req),
        maxPayload: policy.maxMessageBytes,
      });
      if (upstreamHandshake.refused) {
        release();
        const { status, contentType, body } = upstreamHandshake.refused;
        socket.end(rawResponse({ status, headers: { ...(contentType ? { "content-type": contentType } : {}), "x-request-id": requestId }, body }));
        answered(status);
        return record(status, { latencyMs: performance.now() - startedAt });
      }
      const toUpstream = upstreamHandshake.opened;
      if (socket.destroyed || !socket.writable) {
        release();
        toUpstream.terminate();
        outcome.problem = "client-closed-request";
        answered(499);
        return record(499, { latencyMs: performance.now() - startedAt });
      }
      const server = new WebSocketServer({
        noServer: true,
        clientTracking: false,
        perMessageDeflate: false,
        maxPayload: policy.maxMessageBytes,
        handleProtocols: () => toUpstream.protocol || false,
      });
      const held = release;
      const extra: Record<string, string | string[]> = { ...outcome.headers, "x-request-id": requestId };
      if (outcome.deprecation) addDeprecationHeaders(extra, outcome.deprecation);
      server.once("headers", (lines) => lines.push(...headerLines(extra)));
      // checkHandshake refuses what the library would; should it refuse more, the upstream is not left open.
      server.once("wsClientError", (error) => {
        toUpstream.terminate();
        held();
        socket.destroy();
        log.warn({ err: error, requestId }, "WebSocket handshake refused by the library after admission");
      });
      const { caller } = admitted;
      const idleMs = policy.idleTimeoutSeconds * 1000;
      server.handleUpgrade(req, socket, head, (client: WebSocket) => {
        const series = deps.websocketMetrics.series(env.slug, api.slug);
        const tunnel = openTunnel({ client, upstream: toUpstream, idleMs, series });
        const connection = {
          envId: env.id,
          apiId: api.id,
          caller: caller && { clientId: caller.token.clientId, jti: caller.token.jti, expiresAt: caller.token.expiresAt },
          close: tunnel.close,
        };
        connections.add(connection);
        series.opened();
        void tunnel.closed.then((end) => {
          connections.delete(connection);
          held();
          series.closed();
          record(101, { latencyMs: performance.now() - startedAt, ...end });
        });
      });
      answered(101);
    } catch (error) {
      release?.();
      const refusal = toProblem(error);
      outcome.problem = refusal.code;
      if (refusal.status >= 500 && !(error instanceof ProblemError)) log.error({ err: error, requestId, traceId: trace.traceId }, "WebSocket handshake failed");
      const upstreamFailure = UPSTREAM_FAILURES[refusal.code];
      if (upstreamFailure) metrics.upstreamFailed(outcome.env?.slug ?? "", outcome.api ?? "", upstreamFailure);
      const response = problemPlainResponse(refusal, { instance: path, requestId, traceId: trace.traceId });
      refusalHeaders(response, refusal, outcome);
      if (socket.writable) socket.end(rawResponse({ ...response, body: String(response.body) }));
      answered(refusal.status);
      record(refusal.status, { latencyMs: performance.now() - startedAt });
    }
  };
}

/** The handshake's fields the upstream is sent: the client's that pass, the gateway's identity and trace context; never the handshake's own `Sec-WebSocket-*`. */
function upstreamHeaders(
  request: IncomingRequest,
  trace: RequestTrace,
  call: { clientId: string | null; clientAddress: string; requestId: string },
): Record<string, string> {
  const pairs = upstreamRequestHeaders({ request, url: new URL(request.url), ...call }, false);
  const headers: Record<string, string> = {};
  for (let index = 0; index < pairs.length; index += 2) {
    const name = pairs[index]!;
    if (!name.startsWith("sec-websocket-")) headers[name] = pairs[index + 1]!;
  }
  headers.traceparent = upstreamTraceparent(trace, undefined);
  if (trace.traceState !== null) headers.tracestate = trace.traceState;
  return headers;
}

/** The subprotocols the client offers, in its order; checked by `checkHandshake`. */
function requestedProtocols(req: IncomingMessage): string[] {
  const header = req.headers["sec-websocket-protocol"];
  return header === undefined ? [] : header.split(",").map((protocol) => protocol.trim());
}
