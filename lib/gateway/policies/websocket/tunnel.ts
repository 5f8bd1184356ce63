import WebSocket from "ws";
import type { WebsocketSeries } from "./metrics";

/** RFC 6455 §7.4.1 codes the tunnel sends itself. */
export const CLOSE_CODES = { goingAway: 1001, protocolError: 1002, invalidData: 1007, messageTooBig: 1009 } as const;

/** What one side's failure tells the other: its receiver's errors by their RFC 6455 code, a broken connection as going away. */
function closeCodeOf(error: Error & { code?: string }): { code: number; reason: string } {
  if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") return { code: CLOSE_CODES.messageTooBig, reason: "message too big" };
  if (error.code === "WS_ERR_INVALID_UTF8") return { code: CLOSE_CODES.invalidData, reason: "invalid UTF-8" };
  if (error.code?.startsWith("WS_ERR_")) return { code: CLOSE_CODES.protocolError, reason: "protocol error" };
  return { code: CLOSE_CODES.goingAway, reason: "connection lost" };
}

/** Codes an endpoint may send in a Close frame (RFC 6455 §7.4); 1005 and 1006 only report that none came. */
function sendable(code: number): boolean {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
}

function closeSide(socket: WebSocket, code: number, reason: string | Buffer): void {
  if (socket.readyState === WebSocket.CLOSING || socket.readyState === WebSocket.CLOSED) return;
  if (code === 1005) socket.close();
  else socket.close(sendable(code) ? code : CLOSE_CODES.goingAway, reason);
}

/** A relayed message's bytes waiting to be sent, past which its sender is read no further until they drain. */
const HIGH_WATER_BYTES = 4 * 1024 * 1024;

export type TunnelEnd = { bytesIn: number; bytesOut: number };

export type Tunnel = {
  /** resolves once the client's connection has closed, with the message bytes each way */
  readonly closed: Promise<TunnelEnd>;
  /** Closes both sides with `code`. */
  close(code: number, reason: string): void;
};

/**
 * Relays messages both ways between the client's WebSocket and the upstream's, text as
 * text and binary as binary, and a Close from either side to the other with its code and
 * reason. A side that fails (a message over the size limit, a protocol error) closes the
 * other with the matching code. No message either way for `idleMs` closes both with 1001.
 * Control frames are answered hop by hop by each side and are no activity. Bytes are the
 * messages' payloads: `bytesIn` from the client, `bytesOut` to it.
 */
export function openTunnel(input: { client: WebSocket; upstream: WebSocket; idleMs: number; series: WebsocketSeries }): Tunnel {
  const { client, upstream, series } = input;
  const counts: TunnelEnd = { bytesIn: 0, bytesOut: 0 };
  const idle = setTimeout(() => end(CLOSE_CODES.goingAway, "idle timeout"), input.idleMs);
  idle.unref();

  function end(code: number, reason: string | Buffer, from?: WebSocket): void {
    clearTimeout(idle);
    if (from !== client) closeSide(client, code, reason);
    if (from !== upstream) closeSide(upstream, code, reason);
  }

  function relay(from: WebSocket, to: WebSocket, counted: (bytes: number) => void): void {
    from.on("message", (data: Buffer, isBinary) => {
      counted(data.length);
      idle.refresh();
      to.send(data, { binary: isBinary }, () => {
        if (from.isPaused && to.bufferedAmount <= HIGH_WATER_BYTES) from.resume();
      });
      if (to.bufferedAmount > HIGH_WATER_BYTES) from.pause();
    });
    from.on("error", (error) => {
      const { code, reason } = closeCodeOf(error);
      end(code, reason, from);
    });
    from.on("close", (code, reason) => end(code, reason, from));
  }

  relay(client, upstream, (bytes) => {
    counts.bytesIn += bytes;
    series.messagesIn.inc();
  });
  relay(upstream, client, (bytes) => {
    counts.bytesOut += bytes;
    series.messagesOut.inc();
  });
  upstream.resume();
  const closed = new Promise<TunnelEnd>((resolve) => client.once("close", () => resolve(counts)));
  return { closed, close: (code, reason) => end(code, reason) };
}
