// With GATEWAY_PUBLIC_URL on another origin than PUBLIC_URL, the portal's "try it" calls the
// gateway cross-origin: the gateway answers CORS for the portal's origin alone, never with
// credentials, on both processes (decision 045).
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { startServer, type TestServer } from "../support/server";
import { accessToken, basic, GATEWAY_PROCESSES, newCredential, openDb, registerProxyApi } from "./gateway-support";

const ENV = "sso-qa";
const GATEWAY_ORIGIN = "https://gateway.example.test";
const OTHER_ORIGIN = "https://elsewhere.example";

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An upstream that answers with an ETag, and allows credentials as an upstream written for cookies does. */
async function upstream(): Promise<string> {
  const server: HttpServer = createHttpServer((_req, res) =>
    res
      .writeHead(200, {
        "content-type": "application/json",
        etag: '"v1"',
        "access-control-allow-credentials": "true",
      })
      .end("{}"),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function preflight(server: TestServer, path: string, origin: string, method: string, headers: string): Promise<Response> {
  return fetch(`${server.url}/gw/${ENV}/${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
  });
}

const varies = (response: Response) => (response.headers.get("vary") ?? "").toLowerCase().split(/,\s*/);

describe.each(GATEWAY_PROCESSES)("CORS on $name with a gateway origin of its own", ({ env, nodeArgs }) => {
  let server: TestServer;
  let db: Db;
  let portalOrigin: string;
  let client: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    server = await startServer({ env: { ...env, GATEWAY_PUBLIC_URL: GATEWAY_ORIGIN }, nodeArgs });
    cleanups.push(() => server.stop());
    db = openDb(server);
    cleanups.push(() => db.$disconnect());
    portalOrigin = new URL(server.url).origin;
    await registerProxyApi(db, { slug: "guarded", upstream: await upstream() });
    client = await newCredential(db, ENV);
  }, 120_000);

  it("answers the portal's preflight of a protected API and of the token endpoint, without credentials", async () => {
    for (const [path, method] of [
      ["guarded/orders", "PUT"],
      ["oauth2/token", "POST"],
    ] as const) {
      const answer = await preflight(server, path, portalOrigin, method, "authorization, content-type, if-match");
      expect(answer.status).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe(portalOrigin);
      expect(answer.headers.get("access-control-allow-methods")).toContain(method);
      const allowed = answer.headers.get("access-control-allow-headers")?.toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "dpop", "x-api-key", "content-type", "if-match"]));
      expect(Number(answer.headers.get("access-control-max-age"))).toBeGreaterThan(0);
      expect(varies(answer)).toContain("origin");
      expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("lets the portal read a token answer and an API's answer with the headers clients read, never with credentials", async () => {
    const issued = await fetch(`${server.url}/gw/${ENV}/oauth2/token`, {
      method: "POST",
      headers: { origin: portalOrigin, authorization: basic(client.clientId, client.clientSecret), "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(issued.status).toBe(200);
    expect(issued.headers.get("access-control-allow-origin")).toBe(portalOrigin);
    const token = ((await issued.json()) as { access_token: string }).access_token;

    const answer = await fetch(`${server.url}/gw/${ENV}/guarded/orders`, { headers: { origin: portalOrigin, authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe(portalOrigin);
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    const exposed = answer.headers.get("access-control-expose-headers")?.toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining(["ratelimit", "ratelimit-policy", "retry-after", "etag", "deprecation", "sunset", "link", "x-request-id", "location"]),
    );
    expect(varies(answer)).toContain("origin");

    const refused = await fetch(`${server.url}/gw/${ENV}/guarded/orders`, { headers: { origin: portalOrigin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(portalOrigin);
  });

  it.runIf(nodeArgs === undefined)("lets the portal's pages connect to the gateway's origin and to no other", async () => {
    const page = await fetch(`${server.url}/apis`);
    expect(page.status).toBe(200);
    const connect = page.headers
      .get("content-security-policy")
      ?.split(";")
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith("connect-src"));
    expect(connect).toBe(`connect-src 'self' ${GATEWAY_ORIGIN}`);
  });

  it("gives another origin no CORS header of its own, for a preflight or a call", async () => {
    const asked = await preflight(server, "guarded/orders", OTHER_ORIGIN, "GET", "authorization");
    expect(asked.status).not.toBe(204);
    expect(asked.headers.get("access-control-allow-origin")).toBeNull();
    expect(asked.headers.get("access-control-allow-methods")).toBeNull();

    const tokenAsked = await preflight(server, "oauth2/token", OTHER_ORIGIN, "POST", "authorization");
    expect(tokenAsked.headers.get("access-control-allow-origin")).toBeNull();

    const token = await accessToken(server, ENV, client);
    const called = await fetch(`${server.url}/gw/${ENV}/guarded/orders`, { headers: { origin: OTHER_ORIGIN, authorization: `Bearer ${token}` } });
    expect(called.status).toBe(200);
    expect(called.headers.get("access-control-allow-origin")).toBeNull();
    expect(called.headers.get("access-control-expose-headers")).toBeNull();
    expect(varies(called)).toContain("origin");

    const portalLookalike = await preflight(server, "oauth2/token", `${portalOrigin}.elsewhere.example`, "POST", "authorization");
    expect(portalLookalike.headers.get("access-control-allow-origin")).toBeNull();
  });
});
