import "server-only";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import type WebSocket from "ws";
import { WebSocketServer } from "ws";
import type { IncomingRequest } from "../../../http/message";
import { nodeRequest } from "../../../http/node-message";
import { problem } from "../../../http/problem";
import { rawResponse } from "../../../http/raw-response";
import { requestIdFrom } from "../../../http/request-id";
import type { GatewayMetrics } from "../../../metrics/gateway-metrics";
import type { GatewayTracer } from "../../../tracing/tracer";
import type { UpstreamSet } from "../../../upstreams/upstream-set";
import { addDecidedFields, refusalAnswer } from "../../answer";
import type { Admission } from "../../handler";
import type { Decided } from "../../pipeline";
import type { CallRecords, Ending, RecordedRequest } from "../../record";
import { type RequestTrace, requestTrace, upstreamTraceparent } from "../../request-trace";
import { upstreamRequestHeaders } from "../upstream/request-headers";
import { handshakeToken } from "./access-token-query";
import { checkHandshake } from "./handshake-checks";
import type { WebsocketMetrics } from "./metrics";
import type { OpenConnections } from "./open-connections";
import { openTunnel } from "./tunnel";
import { websocketNotEnabled } from "./route-stage";
import { openUpstreamSocket } from "./upstream-socket";

export type WebsocketStageDeps = {
  admit: Admission;
  upstreams: UpstreamSet;
  connections: OpenConnections;
  records: CallRecords;
  metrics: GatewayMetrics;
  websocketMetrics: WebsocketMetrics;
  /** the caller's address, as the trusted proxies report it */
  addressOf: (request: IncomingRequest) => string;
  log: Logger;
  tracer?: GatewayTracer;
};

/** A WebSocket handshake on a gateway path, as the node:http server hands it over: the request, its connection, and what the client sent past the head. */
export type WebsocketUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, origin: string) => Promise<void>;

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
  const { admit, connections, records, metrics, log } = deps;

  return async function upgrade(req, socket, head, origin) {
    const startedAt = performance.now();
    const at = new Date();
    // A client that leaves mid-handshake must not take the process with it.
    socket.on("error", () => socket.destroy());
    const request = nodeRequest(req, origin);
    const requestId = requestIdFrom(request.headers);
    const trace = requestTrace(request, deps.tracer);
    const path = new URL(request.url).pathname;
    const decided: Decided = {};
    const recorded: RecordedRequest = { at, requestId, trace, method: "GET", path };
    const record = (end: Ending) => records.logged(recorded, decided, end);
    const answered = (status: number, problem?: string) => records.answered(recorded, decided, { status, latencyMs: performance.now() - startedAt, problem });

    let release: (() => void) | undefined;
    try {
      checkHandshake(req);
      const { request: handshake, upstreamSearch } = handshakeToken(request);
      const admitted = await admit({ request: handshake, url: new URL(handshake.url), path, requestId, trace }, decided);
      const { websocket: policy, caller } = decided;
      if (admitted.kind !== "proxied" || !policy) throw websocketNotEnabled(path);
      const { env, api } = admitted;
      const clientAddress = deps.addressOf(request);
      release = await connections.reserve(env.id, caller?.token.clientId ?? `address ${clientAddress}`, policy.maxConnectionsPerClient);
      if (!release) {
        const holder = caller ? `The client ${caller.token.clientId}` : `The address ${clientAddress}`;
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
        headers: upstreamHeaders(handshake, trace, { clientId: caller?.token.clientId ?? null, clientAddress, requestId }),
        protocols: requestedProtocols(req),
        maxPayload: policy.maxMessageBytes,
      });
      if (upstreamHandshake.refused) {
        release();
        const { status, contentType, body } = upstreamHandshake.refused;
        socket.end(rawResponse({ status, headers: { ...(contentType ? { "content-type": contentType } : {}), "x-request-id": requestId }, body }));
        answered(status);
        return record({ status, latencyMs: performance.now() - startedAt });
      }
      const toUpstream = upstreamHandshake.opened;
      if (socket.destroyed || !socket.writable) {
        release();
        toUpstream.terminate();
        const closed = "client-closed-request";
        answered(499, closed);
        return record({ status: 499, latencyMs: performance.now() - startedAt, problem: closed });
      }
      const server = new WebSocketServer({
        noServer: true,
        clientTracking: false,
        perMessageDeflate: false,
        maxPayload: policy.maxMessageBytes,
        handleProtocols: () => toUpstream.protocol || false,
      });
      const held = release;
      const extra: Record<string, string | string[]> = { "x-request-id": requestId };
      addDecidedFields(extra, decided);
      server.once("headers", (lines) => lines.push(...headerLines(extra)));
      // checkHandshake refuses what the library would; should it refuse more, the upstream is not left open.
      server.once("wsClientError", (error) => {
        toUpstream.terminate();
        held();
        socket.destroy();
        log.warn({ err: error, requestId }, "WebSocket handshake refused by the library after admission");
      });
      const idleMs = policy.idleTimeoutSeconds * 1000;
      server.handleUpgrade(req, socket, head, (client: WebSocket) => {
        const series = deps.websocketMetrics.series(env.slug, api.slug);
        const tunnel = openTunnel({ client, upstream: toUpstream, idleMs, series });
        const connection = {
          envId: env.id,
          apiId: api.id,
          caller: caller ? { clientId: caller.token.clientId, jti: caller.token.jti, expiresAt: caller.token.expiresAt } : null,
          close: tunnel.close,
        };
        connections.add(connection);
        series.opened();
        void tunnel.closed.then((end) => {
          connections.delete(connection);
          held();
          series.closed();
          record({ status: 101, latencyMs: performance.now() - startedAt, ...end });
        });
      });
      answered(101);
    } catch (error) {
      release?.();
      const { response, refusal } = refusalAnswer(error, decided, { instance: path, requestId, trace, log, metrics, failed: "WebSocket handshake failed" });
      if (socket.writable) socket.end(rawResponse({ ...response, body: String(response.body) }));
      answered(refusal.status, refusal.code);
      record({ status: refusal.status, latencyMs: performance.now() - startedAt, problem: refusal.code });
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
