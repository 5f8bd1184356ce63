import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";

/** A handshake the WebSocket stage takes: `Upgrade: websocket`, the one protocol named. */
export function isWebsocketUpgrade(req: IncomingMessage): boolean {
  return req.headers.upgrade?.toLowerCase() === "websocket";
}

/** The request's head as the client sent it, less `Upgrade` and Connection's `upgrade` token. */
function headWithoutUpgrade(req: IncomingMessage): string {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    const name = req.rawHeaders[index]!;
    let value = req.rawHeaders[index + 1]!;
    if (name.toLowerCase() === "upgrade") continue;
    if (name.toLowerCase() === "connection") {
      value = value
        .split(",")
        .map((option) => option.trim())
        .filter((option) => option !== "" && option.toLowerCase() !== "upgrade")
        .join(", ");
      if (value === "") continue;
    }
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/**
 * Serves an Upgrade the server does not take as the plain request it also is, as Node does
 * for a server with no `upgrade` listener (RFC 9110 §7.8 lets a server ignore Upgrade): the
 * connection is handed back to the server with the head it came with, less the Upgrade, and
 * what followed it (a body, a next request), so the request is parsed again and served
 * whole, and the connection kept alive as any other.
 */
export function serveAsPlainRequest(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  socket.unshift(Buffer.concat([Buffer.from(headWithoutUpgrade(req), "latin1"), head]));
  server.emit("connection", socket);
}
