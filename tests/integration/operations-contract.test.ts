import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { startServer, type TestServer } from "../support/server";
import { accessToken, newCredential, openDb } from "./gateway-support";

type Document = { servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };

const METHODS = ["GET", "PUT", "POST", "PATCH", "DELETE"];

let server: TestServer;
let db: Db;
let token: string;
let notificationId: string;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  const client = await newCredential(db, "sso-qa");
  token = await accessToken(server, "sso-qa", client, "notifications:read notifications:write");
  const env = await db.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } });
  const [id] = await createNotifications({ db, environmentId: env.id, recipients: { clientIds: [client.clientId] }, title: "contract" });
  notificationId = id!;
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

async function servedDocument(api: string): Promise<Document> {
  const response = await fetch(`${server.url}/apis/${api}/openapi.json?env=sso-qa`);
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
}

/** Which methods a document declares on a path, upper-case. */
function declared(document: Document, path: string): string[] {
  return METHODS.filter((method) => method.toLowerCase() in document.paths[path]!);
}

describe("served documents and the gateway's routing agree", () => {
  it("Notifications API: every documented operation answers, every other method on its path is 405 with Allow", async () => {
    const document = await servedDocument("notifications");
    const base = document.servers[0]!.url;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
    for (const path of Object.keys(document.paths)) {
      const url = `${base}${path.replace("{id}", notificationId)}`;
      const allowed = declared(document, path);
      for (const method of METHODS) {
        const response = await fetch(url, { method, headers, body: method === "PUT" ? JSON.stringify({ status: "read" }) : undefined });
        if (allowed.includes(method)) {
          expect(response.status, `${method} ${path}`).toBe(200);
        } else {
          expect(response.status, `${method} ${path}`).toBe(405);
          expect(response.headers.get("content-type")).toBe("application/problem+json");
          expect(response.headers.get("allow")?.split(", ").sort()).toEqual([...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].sort());
          expect((await response.json()).type).toBe(`${server.url}/problems/method-not-allowed`);
        }
      }
    }
    const unknown = await fetch(`${base}/v1/elsewhere`, { headers });
    expect(unknown.status).toBe(404);
    const head = await fetch(`${base}/v1/notifications/${notificationId}`, { method: "HEAD", headers });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toMatch(/^"v\d+"$/);
    expect(await head.text()).toBe("");
  });

  it("token service: every documented endpoint is served, other methods are refused with Allow", async () => {
    const document = await servedDocument("global-sso-token");
    const base = document.servers[0]!.url;
    expect(Object.keys(document.paths).length).toBe(6);
    for (const path of Object.keys(document.paths)) {
      const allowed = declared(document, path);
      for (const method of ["GET", "POST", "DELETE"]) {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: method === "POST" ? "" : undefined,
        });
        if (allowed.includes(method)) {
          // An empty POST is refused by the endpoint itself (RFC 6749 JSON), not by routing.
          expect(response.status, `${method} ${path}`).toBe(method === "GET" ? 200 : 400);
        } else {
          expect(response.status, `${method} ${path}`).toBe(405);
          expect(response.headers.get("allow"), `${method} ${path}`).toBe(allowed.includes("GET") ? "GET, HEAD" : "POST");
        }
      }
    }
    expect((await fetch(`${base}/oauth2/authorize`)).status).toBe(404);
  });
});
