import type { IncomingMessage } from "node:http";
import type { BodyRead } from "./message";

const TOO_LARGE: BodyRead = { ok: false, reason: "too-large" };
const INCOMPLETE: BodyRead = { ok: false, reason: "incomplete" };

/**
 * A Node request's whole body, gathered from its events in one promise. Iterating the stream
 * costs an async iterator's promises per chunk and destroys the request at the end, which a body
 * of one packet, read on every validated call, pays for in full. Past `maxBytes` reading stops
 * and the rest is left to the answer's lingering close, so the client reads its 413.
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  if (req.destroyed) return Promise.resolve(INCOMPLETE);
  if (req.readableEnded) return Promise.resolve({ ok: true, bytes: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (read: BodyRead): void => {
      req.off("data", onData).off("end", onEnd).off("error", onFailure).off("close", onFailure);
      resolve(read);
    };
    function onData(chunk: Buffer): void {
      size += chunk.byteLength;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      req.pause();
      settle(TOO_LARGE);
    }
    function onEnd(): void {
      settle({ ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    }
    function onFailure(): void {
      settle(INCOMPLETE);
    }
    req.on("data", onData).on("end", onEnd).on("error", onFailure).on("close", onFailure);
  });
}
