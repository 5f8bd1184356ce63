import type { IncomingMessage } from "node:http";
import { type FieldError, problem } from "../../../http/problem";

/** RFC 6455 §4.1: 16 random bytes, base64-encoded. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;
/** RFC 9110 §5.6.2: a subprotocol name is a token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * What RFC 6455 §4.2.1 asks of a handshake, checked before the gateway admits it, so that
 * a malformed one is refused with a problem document rather than the WebSocket library's
 * plain answer: GET, a key, version 13 (or 8, which the library also speaks), and
 * subprotocols that are tokens, each offered once.
 */
export function checkHandshake(req: IncomingMessage): void {
  if (req.method !== "GET") {
    throw problem("method-not-allowed", { detail: "A WebSocket handshake is a GET request.", headers: { allow: "GET" } });
  }
  const errors: FieldError[] = [];
  if (!KEY.test(req.headers["sec-websocket-key"] ?? "")) {
    errors.push({ in: "header", field: "sec-websocket-key", message: "must be 16 bytes in base64" });
  }
  const version = req.headers["sec-websocket-version"];
  if (version !== "13" && version !== "8") errors.push({ in: "header", field: "sec-websocket-version", message: "must be 13" });
  const protocols = req.headers["sec-websocket-protocol"];
  if (protocols !== undefined) {
    const offered = protocols.split(",").map((protocol) => protocol.trim());
    if (!offered.every((protocol) => TOKEN.test(protocol)) || new Set(offered).size !== offered.length) {
      errors.push({ in: "header", field: "sec-websocket-protocol", message: "must list distinct tokens" });
    }
  }
  if (errors.length === 0) return;
  throw problem("validation-failed", {
    detail: `The WebSocket handshake is not valid: ${errors.map((error) => `${error.field} ${error.message}`).join("; ")}.`,
    errors,
    headers: { "sec-websocket-version": "13" },
  });
}
