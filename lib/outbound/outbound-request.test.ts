import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboundError, outboundJson, outboundRequest } from "./outbound-request";

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/big") return response.end("x".repeat(2048));
    if (request.url === "/redirect") {
      response.writeHead(302, { location: "/json" });
      return response.end();
    }
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ path: request.url, host: request.headers.host }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const refused = (url: string, policy: Parameters<typeof outboundRequest>[1]) => expect(outboundRequest(url, policy)).rejects.toBeInstanceOf(OutboundError);

describe("outbound requests", () => {
  const strict = { allowPrivate: false };

  it("refuses a host name that resolves to loopback, through the system resolver or another", async () => {
    await refused(`https://localhost:${port}/json`, strict);
    await refused("https://jwks.example.test/keys", { allowPrivate: false, resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
    await expect(
      outboundRequest("https://mixed.example.test/", {
        allowPrivate: false,
        resolve: async () => [
          { address: "8.8.8.8", family: 4 },
          { address: "10.0.0.7", family: 4 },
        ],
      }),
    ).rejects.toThrow(/10\.0\.0\.7, which is not a public address/);
  });

  it("refuses private, link-local, loopback and documentation address literals, IPv6 forms that carry one included", async () => {
    for (const host of [
      "10.0.0.1",
      "169.254.169.254",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "[fe80::1]",
      "100.100.100.200",
      "[64:ff9b::a9fe:a9fe]",
      "[2002:a9fe:a9fe::1]",
      "[::ffff:0:7f00:1]",
      "192.0.2.1",
    ]) {
      await expect(outboundRequest(`https://${host}/latest/meta-data`, strict), host).rejects.toThrow(/not a public address/);
    }
  });

  it("refuses plain http and URLs with credentials unless private targets are allowed", async () => {
    await expect(outboundRequest("http://example.com/", strict)).rejects.toThrow(/only https/);
    await expect(outboundRequest("https://user:pass@example.com/", strict)).rejects.toThrow(/credentials/);
    await expect(outboundRequest("not a url", strict)).rejects.toThrow(/not a URL/);
  });

  it("with private targets allowed, fetches over http from the address it checked, whatever the name", async () => {
    const allowed = { allowPrivate: true, resolve: async () => [{ address: "127.0.0.1", family: 4 }] };
    expect(await outboundJson(`http://issuer.example.test:${port}/json`, allowed)).toEqual({ path: "/json", host: `issuer.example.test:${port}` });
    expect(await outboundJson(`http://127.0.0.1:${port}/json`, { allowPrivate: true })).toEqual({ path: "/json", host: `127.0.0.1:${port}` });
  });

  it("follows no redirect and caps the answer's size", async () => {
    const allowed = { allowPrivate: true };
    expect((await outboundRequest(`http://127.0.0.1:${port}/redirect`, allowed)).status).toBe(302);
    await expect(outboundJson(`http://127.0.0.1:${port}/redirect`, allowed)).rejects.toThrow(/answered 302/);
    await expect(outboundRequest(`http://127.0.0.1:${port}/big`, { allowPrivate: true, maxBytes: 1024 })).rejects.toThrow(/more than 1024 bytes/);
  });
});
