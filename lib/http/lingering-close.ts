import type { Duplex } from "node:stream";

/**
 * What is read and dropped of a request after its answer, at most, before the connection is
 * destroyed. A client on loopback sends megabytes before it reads the answer, the more so on a
 * busy machine; a close with its bytes unread resets the connection and the client loses the
 * answer, so the time bound does the limiting and this one only stops a client that never reads.
 */
const LINGER_BYTES = 64 * 1024 * 1024;
const LINGER_MS = 2_000;

/**
 * Ends a connection whose answer came before the client finished sending its request, as
 * nginx's lingering close does: the answer (`last`, or what was written before) goes out, then
 * what the client still sends is dropped for a little while, so that the reset a close with
 * unread bytes causes does not reach the client before it has read the answer.
 */
export function lingeringClose(socket: Duplex, last?: string): void {
  socket.end(last);
  let dropped = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  socket.once("end", () => socket.destroy());
  socket.once("close", () => clearTimeout(timer));
}
