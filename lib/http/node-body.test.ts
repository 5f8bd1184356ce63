import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { BodyRead } from "./message";
import { nodeRequest, writePlainResponse } from "./node-message";

const MAX_BYTES = 16;

let server: Server | undefined;

afterEach(() => {
  server?.close();
  server = undefined;
});

/** A server that reads each request's body whole and answers what it read, as the gateway's readers do. */
async function reading(): Promise<{ port: number; reads: BodyRead[] }> {
  const reads: BodyRead[] = [];
  server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const read = await nodeRequest(req, "http://127.0.0.1").wholeBody!(MAX_BYTES);
    reads.push(read);
    const body = read.ok ? read.bytes.toString("utf8") : read.reason;
    writePlainResponse({ status: read.ok ? 200 : 413, headers: { "content-type": "text/plain" }, body }, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { port: (server.address() as { port: number }).port, reads };
}

/** Writes each part as its own packet, a little apart, and hands back the socket and everything it receives. */
async function send(port: number, parts: string[]): Promise<{ socket: Socket; received: Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  const received = new Promise<string>((resolve) => socket.on("close", () => resolve(text)));
  for (const part of parts) {
    socket.write(part);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { socket, received };
}

describe("a Node request's body read whole", () => {
  it("joins a body that arrives in several packets", async () => {
    const { port } = await reading();
    const { socket, received } = await send(port, ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\nConnection: close\r\n\r\nhello", " body"]);
    expect(await received).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\nhello body$/);
    socket.destroy();
  });

  it("reads no body from a request that declares none", async () => {
    const { port, reads } = await reading();
    const { received } = await send(port, ["POST / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"]);
    expect(await received).toMatch(/^HTTP\/1\.1 200 /);
    expect(reads).toEqual([{ ok: true, bytes: Buffer.alloc(0) }]);
  });

  it("stops at the limit of an undeclared body, and the client still reads its answer before the close", async () => {
    const { port, reads } = await reading();
    const chunk = `${(20).toString(16)}\r\n${"x".repeat(20)}\r\n`;
    const { received } = await send(port, ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", chunk, chunk]);
    const answer = await received;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(reads).toEqual([{ ok: false, reason: "too-large" }]);
  });

  it("is incomplete when the client closes the connection mid-body", async () => {
    const { port, reads } = await reading();
    const { socket } = await send(port, ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhel"]);
    socket.destroy();
    await expect.poll(() => reads).toEqual([{ ok: false, reason: "incomplete" }]);
  });
});
