// The gateway-only process (`npm run start:gateway`) beside a full instance on one
// database: it serves the gateway, the RFC 8414 metadata path, /api/health and
// /api/ready, and a 404 problem for everything else.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import { createTestDatabase } from "../../lib/database/test-databases";
import { freePort, startServer, type TestServer } from "../support/server";
import { accessToken, newCredential, openDb } from "./gateway-support";

const ENV = "sso-qa";
const cleanups: (() => Promise<unknown>)[] = [];
let full: TestServer;
let gatewayOnly: TestServer;
let db: Db;
let client: Awaited<ReturnType<typeof newCredential>>;
let notificationId: string;

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

beforeAll(async () => {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  // One deployment behind one public URL, so both processes are one issuer.
  const port = await freePort();
  const env = { PUBLIC_URL: `http://127.0.0.1:${port}` };
  full = await startServer({ database, env, port });
  cleanups.push(() => full.stop());
  db = openDb(full);
  cleanups.push(() => db.$disconnect());
  client = await newCredential(db, ENV);
  const environment = await db.environment.findUniqueOrThrow({ where: { slug: ENV } });
  [notificationId] = (await createNotifications({ db, environmentId: environment.id, recipients: { clientIds: [client.clientId] }, title: "Scaled out" })) as [
    string,
  ];
  gatewayOnly = await startServer({ database, env: { ...env, ...GATEWAY_ENV }, nodeArgs: GATEWAY_NODE_ARGS });
  cleanups.push(() => gatewayOnly.stop());
}, 180_000);

describe("the gateway-only process", () => {
  it("imports no Next, React, next-auth or Prisma client: its start-up work runs in a process of its own", () => {
    // The entry, which a cluster's primary runs, and the serving module every gateway process imports.
    const compiled = [GATEWAY_NODE_ARGS.at(-1)!, "dist/server/gateway-process.js"].map((file) =>
      readFileSync(join(import.meta.dirname, "..", "..", file), "utf8"),
    );
    const packages = compiled.flatMap((code) => [...code.matchAll(/^import .*?from "([^"]+)";$/gm)].map((match) => match[1]!));
    expect(packages).toContain("better-sqlite3");
    expect(packages.filter((name) => /^(next|react|react-dom|next-auth|@prisma\/.*)(\/|$)/.test(name))).toEqual([]);
  });

  it("names its own port in its banner and log, and the deployment's public URL apart", () => {
    const output = gatewayOnly.output();
    expect(gatewayOnly.port).not.toBe(full.port);
    expect(output).toContain(`gateway only        http://localhost:${gatewayOnly.port}  (port ${gatewayOnly.port})`);
    expect(output).toContain(`public URL          ${full.url}`);
    expect(output).toContain(`Gatehouse gateway is listening on port ${gatewayOnly.port}`);
    expect(output).not.toContain(`localhost:${full.port}`);
  });

  it("answers health and the RFC 8414 metadata path", async () => {
    const health = await fetch(`${gatewayOnly.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const metadata = await fetch(`${gatewayOnly.url}/.well-known/oauth-authorization-server/gw/${ENV}`);
    expect(metadata.status).toBe(200);
    expect(((await metadata.json()) as { issuer: string }).issuer).toBe(`${full.url}/gw/${ENV}`);
  });

  it("answers /api/ready as the full instance does", async () => {
    const [fromGateway, fromFull] = await Promise.all([fetch(`${gatewayOnly.url}/api/ready`), fetch(`${full.url}/api/ready`)]);
    expect([fromGateway.status, fromFull.status]).toEqual([200, 200]);
    expect(fromGateway.headers.get("cache-control")).toBe(fromFull.headers.get("cache-control"));
    const body = await fromGateway.json();
    expect(body).toEqual(await fromFull.json());
    expect(body).toEqual({ status: "ready", checks: { database: "up" } });
    const head = await fetch(`${gatewayOnly.url}/api/ready`, { method: "HEAD", headers: { "x-request-id": "ready-head-1" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-request-id")).toBe("ready-head-1");
  });

  it("answers every other path with a 404 problem", async () => {
    for (const path of ["/", "/apis", "/api/portal/credentials", "/login"]) {
      const response = await fetch(`${gatewayOnly.url}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      const problem = (await response.json()) as { status: number; instance: string; detail: string; requestId: string };
      expect(problem).toMatchObject({ status: 404, instance: path, detail: expect.stringContaining("/api/health and /api/ready") });
      expect(problem.requestId).toBeTruthy();
    }
  });

  it("issues tokens and serves the API on the full instance's data, read-your-writes both ways", async () => {
    const id = notificationId;
    const token = await accessToken(gatewayOnly, ENV, client);
    const headers = { authorization: `Bearer ${token}` };
    const updated = await fetch(`${gatewayOnly.url}/gw/${ENV}/notifications/v1/notifications/${id}`, {
      method: "PUT",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ status: "read" }),
    });
    expect(updated.status).toBe(200);
    const read = await fetch(`${full.url}/gw/${ENV}/notifications/v1/notifications/${id}`, { headers });
    expect(read.status).toBe(200);
    expect(read.headers.get("etag")).toBe(updated.headers.get("etag"));
    expect(((await read.json()) as { status: string }).status).toBe("read");
  });
});
