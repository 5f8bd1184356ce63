import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { closeGatewayConnections, flushGateway, gateway, gatewayMcp, gatewayReady, gatewayUpgrade } from "../lib/gateway";
import { MCP_PATH } from "../lib/gateway/mcp/serve";
import { createAnswerBatch } from "../lib/http/answer-batch";
import { attachClientErrorHandler } from "../lib/http/client-error";
import { nodeHeaders, nodeRequest, writePlainResponse } from "../lib/http/node-message";
import { problemPlainResponse, toProblem } from "../lib/http/problem";
import { checkedTarget, PARSER_HEADER_LIMIT } from "../lib/http/request-head";
import { requestIdFrom } from "../lib/http/request-id";
import { attachUnservedRequestHandlers } from "../lib/http/unserved-requests";
import { log } from "../lib/log";
import { serveMetrics } from "../lib/metrics/serve";
import { isWebsocketUpgrade, serveAsPlainRequest } from "./plain-upgrade";
import { portTakenMessage, StartupError } from "./start-up";

/** A gateway answer that could not be made or written: a 500 problem if nothing is out yet, else the connection cut. */
function answerFailed(error: unknown, res: ServerResponse): void {
  log.error({ err: error }, "gateway response failed");
  if (res.headersSent) return void res.destroy();
  writePlainResponse(problemPlainResponse(toProblem(error), { requestId: requestIdFrom(nodeHeaders(res.req)) }), res);
}

/** The gateway's paths: every environment's gateway, and RFC 8414's metadata path for an issuer with a path. */
const GATEWAY_PATH = /^\/(gw\/|\.well-known\/oauth-authorization-server\/gw\/)/;

/**
 * The node:http server of both entries: `server.ts` (portal and gateway) and
 * `gateway-server.ts` (the gateway alone). `/metrics` and the gateway's paths are
 * answered in this thread; every other request goes to `other`.
 */
export function createGatehouseServer(input: { publicUrl: string; other: (req: IncomingMessage, res: ServerResponse) => void }): Server {
  const serveGateway = gateway();
  const answer = createAnswerBatch(answerFailed);
  const serveMcp = gatewayMcp();
  // Requests are addressed at the public origin; a path in PUBLIC_URL is not part of it.
  const publicOrigin = new URL(input.publicUrl).origin;
  // Node's own refusal of a request without Host is a bare 400; checkedTarget answers it as a problem.
  const server = createServer({ maxHeaderSize: PARSER_HEADER_LIMIT, requireHostHeader: false }, (req, res) => {
    try {
      req.url = checkedTarget(req);
    } catch (error) {
      const refusal = problemPlainResponse(toProblem(error), { requestId: requestIdFrom(nodeHeaders(req)) });
      // Refused before it was read, like the parser's refusals: nothing more is read from this connection.
      refusal.headers.connection = "close";
      return writePlainResponse(refusal, res);
    }
    if (serveMetrics(req, res)) return;
    const isMcp = MCP_PATH.test(req.url);
    if (!isMcp && !GATEWAY_PATH.test(req.url)) return input.other(req, res);
    (isMcp ? serveMcp : serveGateway)(nodeRequest(req, publicOrigin)).then(
      (response) => answer(response, res),
      (error: unknown) => answerFailed(error, res),
    );
  });
  const upgradeGateway = gatewayUpgrade();
  // Node serves an Upgrade as a plain request only while no listener takes it: past this one,
  // every Upgrade but a WebSocket's to the gateway is handed back to be served so.
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const original = req.url;
    let target: string;
    try {
      target = checkedTarget(req);
    } catch {
      return serveAsPlainRequest(server, req, socket, head);
    }
    if (!isWebsocketUpgrade(req) || !GATEWAY_PATH.test(target)) return serveAsPlainRequest(server, req, socket, head);
    req.url = target;
    upgradeGateway(req, socket, head, publicOrigin).catch((error: unknown) => {
      log.error({ err: error, url: original?.split("?")[0] }, "WebSocket handshake failed");
      socket.destroy();
    });
  });
  // Fields past Node's default count of 2000 would be dropped unseen rather than counted against the limit.
  server.maxHeadersCount = 0;
  // Idle connections outlive a load balancer's (60 s is the common default) and a client's
  // own pool timeout, so the side that reuses a connection is never raced by our closing it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  attachClientErrorHandler(server);
  attachUnservedRequestHandlers(server);
  return server;
}

/**
 * On SIGTERM or SIGINT: requests under way finish, then the gateway's buffered
 * request log, credential use and spans are written, `also` runs, and the process exits.
 */
export function stopOnSignals(server: Server, also: () => Promise<unknown> = async () => undefined): void {
  let stopping = false;
  // A second signal (Ctrl-C reaches a cluster's workers and its primary, which passes SIGTERM on) changes nothing.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Tunnelled WebSockets are connections of the server's, which it would wait for.
    closeGatewayConnections();
    server.close(() =>
      Promise.all([flushGateway(), also()])
        .catch((error: unknown) => log.warn({ err: error }, "could not write buffered gateway records"))
        .finally(() => process.exit(0)),
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/**
 * Listens on `port` once the gateway is ready, so that no request goes untraced;
 * a port another process holds ends start-up with one line that says so.
 */
export async function listen(server: Server, port: number): Promise<void> {
  await gatewayReady();
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(error.code === "EADDRINUSE" ? new StartupError(portTakenMessage(port)) : error));
    server.listen(port, () => resolve());
  });
}
