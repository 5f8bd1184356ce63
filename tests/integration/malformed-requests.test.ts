import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachClientErrorHandler } from "../../lib/http/client-error";
import { startServer, type TestServer } from "../support/server";

type RawAnswer = { status: number; headers: Record<string, string>; body: Record<string, unknown> };

/**
 * Sends bytes over a plain TCP connection and reads until the server closes it. A client that
 * `readsLate` sends each chunk 100 ms after the last and reads nothing before all are sent.
 */
function rawExchange(port: number, chunks: string[], { readsLate = false } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (data) => (received += data.toString("latin1")));
    // The server may close before it has read everything we send; that is the point.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      const [head = "", body = ""] = received.split("\r\n\r\n", 2);
      const [statusLine = "", ...fields] = head.split("\r\n");
      const headers = Object.fromEntries(fields.map((field) => [field.slice(0, field.indexOf(":")).toLowerCase(), field.slice(field.indexOf(":") + 1).trim()]));
      try {
        resolve({ status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(body) as Record<string, unknown> });
      } catch {
        reject(new Error(`not a problem answer: ${received.slice(0, 500)}`));
      }
    });
    socket.on("connect", async () => {
      if (!readsLate) {
        for (const chunk of chunks) socket.write(chunk);
        return;
      }
      socket.pause();
      for (const chunk of chunks) {
        socket.write(chunk);
        await sleep(100);
      }
      socket.resume();
    });
  });
}

function expectProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toBe("application/problem+json");
  expect(answer.headers.connection).toBe("close");
  expect(answer.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
  expect(answer.body).toMatchObject({ status, requestId: answer.headers["x-request-id"] });
  expect(answer.body.type).toMatch(new RegExp(`/problems/${code}$`));
  expect(typeof answer.body.title).toBe("string");
  expect(typeof answer.body.detail).toBe("string");
}

describe("requests Node's HTTP parser refuses", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ["17 KB", 17 * 1024],
    ["64 KB", 64 * 1024],
    ["1 MB", 1024 * 1024],
  ])("answers a %s bearer token with a 431 problem", async (_size, length) => {
    const request = `GET /gw/sso-qa/notifications/v1/notifications HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${"a".repeat(length)}\r\n\r\n`;
    expectProblem(await rawExchange(server.port, [request]), 431, "headers-too-large");
  });

  it("answers a client that goes on sending after the answer and reads it last, rather than resetting the connection under it", async () => {
    const head = `GET /gw/sso-qa/notifications/v1/notifications HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${"a".repeat(20 * 1024)}`;
    expectProblem(await rawExchange(server.port, [head, "a".repeat(4 * 1024 * 1024), "\r\n\r\n"], { readsLate: true }), 431, "headers-too-large");
  });

  it("answers a 16 KB query string with a 414 problem", async () => {
    const request = `GET /apis?q=${"a".repeat(16 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
    expectProblem(await rawExchange(server.port, [request]), 414, "uri-too-long");
  });

  it.each([
    ["a malformed request line", "NOT HTTP AT ALL\r\n\r\n"],
    ["a header without a colon", "GET / HTTP/1.1\r\nHost: localhost\r\nno-colon-here\r\n\r\n"],
    ["an unknown HTTP version", "GET / HTTP/7.3\r\nHost: localhost\r\n\r\n"],
    ["an HTTP/1.1 request without Host", "GET /api/health HTTP/1.1\r\n\r\n"],
    ["two Host fields", "GET /api/health HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n"],
    ["a Host field that names no host", "GET /api/health HTTP/1.1\r\nHost: evil.example/x y\r\n\r\n"],
    [
      "both Content-Length and chunked framing",
      "POST /gw/sso-qa/oauth2/token HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ],
    [
      "a chunk size that is not hexadecimal",
      "POST /gw/sso-qa/oauth2/token HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
    ],
  ])("answers %s with a 400 problem", async (_what, request) => {
    expectProblem(await rawExchange(server.port, [request]), 400, "malformed-request");
  });

  it.each(["/apis/%E0%A4%A", "/api/v1/credentials/%zz/secrets", "/problems/%C3%28", "/settings/%"])(
    "answers the portal path %s, whose percent-encoding does not decode, with a 400 problem",
    async (path) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const body = (await response.json()) as Record<string, unknown>;
      expect(body.type).toMatch(/\/problems\/malformed-path$/);
      expect(body.requestId).toBe(response.headers.get("x-request-id"));
      expect(body.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    },
  );

  it("answers oversized chunk extensions with a 413 problem", async () => {
    // A valid media type, so that the token endpoint waits for the body instead of answering first.
    const head =
      "POST /gw/sso-qa/oauth2/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n";
    const answer = await rawExchange(server.port, [head, `1;${"x".repeat(20 * 1024)}\r\na\r\n0\r\n\r\n`]);
    expectProblem(answer, 413, "payload-too-large");
    // The token endpoint, left with half a body, records the client's error, not a server failure.
    const output = await server.settledOutput();
    const lines = output.split("\n").filter((line) => line.includes('"route":"/oauth2/token"'));
    expect(lines.at(-1)).toContain('"status":400');
    expect(output).not.toContain("gateway request failed");
  });
});

describe("a request that does not arrive in time", () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer({ headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 }, (_req, res) => res.end("ok"));
    attachClientErrorHandler(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("gets a 408 problem", async () => {
    expectProblem(await rawExchange(port, ["GET / HTTP/1.1\r\nHost: localhost\r\n"]), 408, "request-timeout");
  });
});
