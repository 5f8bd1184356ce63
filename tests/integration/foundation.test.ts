import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

describe("production server", () => {
  it("reports health when the database answers", async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("serves the portal home with the main navigation", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Gatehouse developer portal");
    for (const [href, label] of [
      ["/apis", "APIs"],
      ["/settings", "Settings"],
      ["/contact", "Contact Us"],
    ]) {
      // Each link may open with its decorative icon.
      expect(html).toMatch(new RegExp(`href="${href}"[^>]*>(<svg[^>]*aria-hidden="true"[^>]*>.*?</svg>)?${label}<`));
    }
  });

  it("answers an unknown environment with a 404 problem", async () => {
    const response = await fetch(`${server.url}/gw/nowhere/notifications/v1/notifications`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(await response.json()).toEqual({
      type: `${server.url}/problems/not-found`,
      title: "Not found",
      status: 404,
      detail: 'There is no environment "nowhere". Environments: sso-qa, sso-prod, platform-dev, platform-prod.',
      instance: "/gw/nowhere/notifications/v1/notifications",
      requestId,
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it("answers an unknown API in a known environment with a 404 problem", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa/no-such-api/v1/things`);
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.detail).toBe(
      'There is no API "no-such-api" in environment "sso-qa". APIs in "sso-qa": /gw/sso-qa/notifications; its token endpoint is /gw/sso-qa/oauth2/token.',
    );
  });

  it("answers an environment without an API with its APIs, not an empty name", async () => {
    const response = await fetch(`${server.url}/gw/sso-qa`);
    expect(response.status).toBe(404);
    expect((await response.json()).detail).toBe(
      'Name an API: /gw/sso-qa/{api}/... APIs in "sso-qa": /gw/sso-qa/notifications; its token endpoint is /gw/sso-qa/oauth2/token.',
    );
  });

  it("echoes a sane X-Request-Id and replaces one that is not", async () => {
    const echoed = await fetch(`${server.url}/gw/nowhere/x`, { headers: { "x-request-id": "client-id.42:a_b" } });
    expect(echoed.headers.get("x-request-id")).toBe("client-id.42:a_b");
    expect((await echoed.json()).requestId).toBe("client-id.42:a_b");
    const replaced = await fetch(`${server.url}/gw/nowhere/x`, { headers: { "x-request-id": "<script>alert(1)</script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_/);
    const portal = await fetch(`${server.url}/api/health`, { headers: { "x-request-id": "portal-call-1" } });
    expect(portal.headers.get("x-request-id")).toBe("portal-call-1");
  });

  it("logs one JSON line per request with its time, method, route, status, latency and request id", async () => {
    const before = new Date().toISOString();
    await fetch(`${server.url}/gw/nowhere/logged`, { headers: { "x-request-id": "log-line-check" } });
    const answered = new Date().toISOString();
    await fetch(`${server.url}/api/health`, { headers: { "x-request-id": "portal-line-check" } });
    const lines = (await server.settledOutput())
      .split("\n")
      .filter((line) => line.includes('"log-line-check"') || line.includes('"portal-line-check"'))
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    const [gateway, portal] = [lines.find((line) => line.requestId === "log-line-check"), lines.find((line) => line.requestId === "portal-line-check")];
    expect(gateway).toMatchObject({ level: 30, method: "GET", route: "/gw/nowhere/logged", status: 404 });
    expect(portal).toMatchObject({ level: 30, method: "GET", route: "/api/health", status: 200 });
    for (const line of [gateway, portal]) {
      expect(Object.keys(line).slice(0, 2)).toEqual(["level", "time"]);
      expect(line.time >= before).toBe(true);
      expect(typeof line.latencyMs).toBe("number");
    }
    // Written up to a second later, the gateway's line still carries the time it was served.
    expect(gateway.time <= answered).toBe(true);
  });

  it("keeps secrets sent in a request out of the log", async () => {
    const secret = "gsk_THIS-must-never-be-logged-0123456789abcdefghijk";
    await fetch(`${server.url}/gw/sso-qa/oauth2/token?client_secret=${secret}`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`gci_test:${secret}`).toString("base64")}`,
        cookie: `session=${secret}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: `grant_type=client_credentials&client_secret=${secret}&password=${secret}`,
    });
    await fetch(`${server.url}/api/health?access_token=${secret}`, { headers: { authorization: `Bearer ${secret}` } });
    expect(await server.settledOutput()).not.toContain("THIS-must-never-be-logged");
  });

  it("answers methods that Fetch cannot carry (TRACE) with a 405 problem and keeps serving", async () => {
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/gw/sso-qa/notifications/v1/notifications`, { method: "TRACE" }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer.status).toBe(405);
    expect(answer.type).toBe("application/problem+json");
    expect(JSON.parse(answer.body)).toMatchObject({ status: 405, type: `${server.url}/problems/method-not-allowed` });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
