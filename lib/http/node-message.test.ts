import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { nodeHeaders } from "./node-message";

/** Sends `head` as a raw HTTP/1.1 request and hands back the request Node parsed from it. */
async function parsed(head: string): Promise<IncomingMessage> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const received = once(server, "request") as Promise<[IncomingMessage, ServerResponse]>;
  const address = server.address() as { port: number };
  const socket = connect(address.port, "127.0.0.1", () => socket.write(`${head}\r\n\r\n`));
  const [req, res] = await received;
  res.end();
  socket.destroy();
  server.close();
  return req;
}

describe("Node's request headers as the gateway reads them", () => {
  it("join a repeated field with a comma, keep a single one as it is, and match names in any case", async () => {
    const req = await parsed("GET / HTTP/1.1\r\nHost: example.test\r\nX-Repeated: a\r\nX-Single: c\r\nx-repeated: b");
    const headers = nodeHeaders(req);
    expect(headers.get("x-repeated")).toBe("a, b");
    expect(headers.get("X-Single")).toBe("c");
    expect(headers.get("x-absent")).toBeNull();
    const seen: [string, string][] = [];
    headers.forEach((value, name) => seen.push([name, value]));
    expect(seen).toEqual([
      ["host", "example.test"],
      ["x-repeated", "a, b"],
      ["x-single", "c"],
    ]);
  });
});
