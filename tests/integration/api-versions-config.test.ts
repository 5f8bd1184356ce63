// API versions from the operator's side: the configuration file's `versions` and the
// `api version add | deprecate | retire` commands, spawned as an operator runs them.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { runAdmin } from "../support/admin-cli";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { eventually, openDb } from "./gateway-support";
import { signedIn } from "./portal-session";

const ordersDocument = (version: string, paths: string[]) => `openapi: 3.1.0
info: { title: Orders, version: ${version} }
paths:
${paths.map((path) => `  ${path}:\n    get:\n      responses:\n        "200": { description: OK }`).join("\n")}
`;

let server: TestServer;
let db: Db;
let upstream: Server;
const folder = mkdtempSync(join(tmpdir(), "gatehouse-versions-"));

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

const admin = (...args: string[]) => runAdmin(server.databaseUrl, ...args);

/** What `config diff` prints after the changes: each file the configuration names, with the SHA-256 of its content. */
const filesRead = (...names: string[]) =>
  `files read:\n${names
    .map(
      (name) =>
        `  ${name} sha256:${createHash("sha256")
          .update(readFileSync(join(folder, name)))
          .digest("hex")}\n`,
    )
    .join("")}`;

/** The brief's example as written, with a real upstream. */
const example = () => `apis:
  - slug: orders
    name: Orders
    summary: Orders of the shop
    visibility: public
    environments:
      sso-qa:
        targets: [{ url: "http://127.0.0.1:${(upstream.address() as AddressInfo).port}" }]
    versions:
      - version: v1
        openapi: ./orders-v1.yaml
        status: deprecated
        deprecatedAt: 2026-11-01
        sunsetAt: 2027-06-30
      - version: v2
        openapi: ./orders-v2.yaml
        status: current
`;

beforeAll(async () => {
  upstream = createServer((req, res) => res.end(JSON.stringify({ path: req.url })));
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  server = await startServer();
  db = openDb(server);
  file("orders-v1.yaml", ordersDocument("1.4.0", ["/v1/orders", "/v1/orders/{id}"]));
  file("orders-v2.yaml", ordersDocument("2.0.0", ["/v2/orders", "/v2/orders/{id}"]));
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe("versions in the configuration file", () => {
  it("applies the example as written: stores both versions and serves each under its segment with its headers", { timeout: 120_000 }, async () => {
    const path = file("orders.yaml", example());
    expect(await admin("config", "apply", "-f", path)).toMatchObject({ code: 0, stdout: "changed:\n  create api orders\n" });
    const api = await db.api.findUniqueOrThrow({ where: { slug: "orders" }, include: { versions: { orderBy: { version: "asc" } } } });
    expect(api.version).toBe("2.0.0");
    expect(JSON.parse(api.openapiDocument!).info.version).toBe("2.0.0");
    expect(api.versions.map(({ version, status, deprecatedAt, sunsetAt }) => ({ version, status, deprecatedAt, sunsetAt }))).toEqual([
      { version: "v1", status: "deprecated", deprecatedAt: new Date("2026-11-01T00:00:00Z"), sunsetAt: new Date("2027-06-30T00:00:00Z") },
      { version: "v2", status: "current", deprecatedAt: null, sunsetAt: null },
    ]);
    expect(Object.keys(JSON.parse(api.versions[0]!.openapiDocument!).paths)).toEqual(["/v1/orders", "/v1/orders/{id}"]);

    expect(await eventually(async () => (await fetch(`${server.url}/gw/sso-qa/orders/v1/orders/7`)).headers.has("deprecation"))).toBe(true);
    const v1 = await fetch(`${server.url}/gw/sso-qa/orders/v1/orders/7`);
    expect(await v1.json()).toEqual({ path: "/v1/orders/7" });
    expect(v1.headers.get("deprecation")).toBe(`@${Date.parse("2026-11-01T00:00:00Z") / 1000}`);
    expect(v1.headers.get("sunset")).toBe("Wed, 30 Jun 2027 00:00:00 GMT");
    const v2 = await fetch(`${server.url}/gw/sso-qa/orders/v2/orders/7`);
    expect(await v2.json()).toEqual({ path: "/v2/orders/7" });
    expect(v2.headers.get("deprecation")).toBeNull();

    // The portal serves each version's document.
    const spec = await fetch(`${server.url}/apis/orders/openapi.json?version=v1`);
    expect(spec.status).toBe(200);
    expect(Object.keys(((await spec.json()) as { paths: object }).paths)).toEqual(["/v1/orders", "/v1/orders/{id}"]);

    expect(await admin("config", "apply", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });
  });

  it("refuses a top-level version beside versions, and a date it cannot read; takes an ISO time", { timeout: 120_000 }, async () => {
    const twice = file("orders-twice.yaml", example().replace("    visibility: public", "    version: 1.0.0\n    visibility: public"));
    expect(await admin("config", "diff", "-f", twice)).toMatchObject({
      code: 1,
      stdout: expect.stringContaining("orders-twice.yaml:5: apis[0].version: With versions, each version gives its own version"),
    });
    const undated = file("orders-undated.yaml", example().replace("sunsetAt: 2027-06-30", "sunsetAt: next summer"));
    expect(await admin("config", "diff", "-f", undated)).toMatchObject({
      code: 1,
      stdout: expect.stringContaining("orders-undated.yaml:14: apis[0].versions[0].sunsetAt: Write a date as 2027-06-30, or an ISO 8601 time"),
    });
    const timed = file("orders-timed.yaml", example().replace("sunsetAt: 2027-06-30", "sunsetAt: 2027-06-30T12:00:00Z"));
    expect(await admin("config", "diff", "-f", timed)).toMatchObject({
      code: 0,
      stdout: `would change:\n  update api orders: versions.v1.sunsetAt\n${filesRead("orders-v1.yaml", "orders-v2.yaml")}`,
    });
  });

  it("shows version changes in diff, and export writes versions that apply with no changes", { timeout: 120_000 }, async () => {
    file("orders-v3.yaml", ordersDocument("3.0.0-beta", ["/v3/orders"]));
    const changed = file(
      "orders-v3-config.yaml",
      `${example().replace("status: current", "status: deprecated\n        deprecatedAt: 2027-01-15\n        changelog: [{ version: 2.0.0, date: 2026-11-20, notes: Orders by id }]")}      - version: v3\n        openapi: ./orders-v3.yaml\n        status: beta\n`,
    );
    expect(await admin("config", "diff", "-f", changed)).toMatchObject({
      code: 0,
      stdout: `would change:\n  update api orders: versions.v2.status, versions.v2.deprecatedAt, versions.v2.changelog, versions.v3\n${filesRead("orders-v1.yaml", "orders-v2.yaml", "orders-v3.yaml")}`,
    });

    const exported = await admin("config", "export");
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("    versions:\n      - version: v1\n        status: deprecated\n");
    expect(exported.stdout).toContain("deprecatedAt: 2026-11-01");
    expect(exported.stdout).toContain("sunsetAt: 2027-06-30");
    expect(exported.stdout).not.toMatch(/^ {4}version: /m);
    const roundTrip = file("exported.yaml", exported.stdout);
    expect(await admin("config", "diff", "-f", roundTrip)).toMatchObject({ code: 0, stdout: "no changes\n" });
  });
});

describe("api version add | deprecate | retire", () => {
  it("adds a version, deprecates an operation and a version with a sunset, retires one, each audited", { timeout: 120_000 }, async () => {
    const v3 = file("cli-v3.yaml", ordersDocument("3.0.0", ["/v3/orders", "/v3/orders/{id}"]));
    const added = await admin("api", "version", "add", "--api", "orders", "--version", "v3", "--openapi", v3, "--json");
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ slug: "orders", version: "v3", status: "current", superseded: ["v2"] });
    const stored = await db.apiVersion.findMany({ where: { api: { slug: "orders" } }, orderBy: { version: "asc" } });
    expect(stored.map((row) => [row.version, row.status])).toEqual([
      ["v1", "deprecated"],
      ["v2", "deprecated"],
      ["v3", "current"],
    ]);
    expect((await db.api.findUniqueOrThrow({ where: { slug: "orders" } })).version).toBe("3.0.0");
    // A version added starts its own changelog, which the API page shows for it.
    expect(stored[2]!.changelog).toEqual([{ version: "3.0.0", date: new Date().toISOString().slice(0, 10), notes: "v3 released." }]);

    const operation = await admin(
      "api",
      "deprecate",
      "--api",
      "orders",
      "--version",
      "v3",
      "--operation",
      "GET /v3/orders/{id}",
      "--sunset",
      "2028-01-31",
      "--json",
    );
    expect(operation.code).toBe(0);
    expect(JSON.parse(operation.stdout)).toMatchObject({ operation: "GET /v3/orders/{id}", sunsetAt: "2028-01-31T00:00:00.000Z" });
    const marked = await db.apiOperationDeprecation.findFirstOrThrow({ where: { apiVersion: { version: "v3", api: { slug: "orders" } } } });
    expect(marked).toMatchObject({ method: "GET", path: "/v3/orders/{id}", sunsetAt: new Date("2028-01-31T00:00:00Z") });

    const version = await admin("api", "deprecate", "--api", "orders", "--version", "v2", "--date", "2027-02-01", "--sunset", "2027-08-01", "--json");
    expect(JSON.parse(version.stdout)).toMatchObject({ version: "v2", deprecatedAt: "2027-02-01T00:00:00.000Z", sunsetAt: "2027-08-01T00:00:00.000Z" });

    expect(await admin("api", "retire", "--api", "orders", "--version", "v1", "--json")).toMatchObject({ code: 0 });
    expect((await db.apiVersion.findFirstOrThrow({ where: { version: "v1", api: { slug: "orders" } } })).status).toBe("retired");
    expect(await eventually(async () => (await fetch(`${server.url}/gw/sso-qa/orders/v1/orders/7`)).status === 410)).toBe(true);

    const audits = await db.auditEvent.findMany({ where: { targetId: "orders", action: { startsWith: "api." } }, select: { action: true } });
    // Each deprecation also records that its notice went out (to nobody here: no client called orders).
    expect([...new Set(audits.map((audit) => audit.action))].sort()).toEqual([
      "api.deprecation-notice",
      "api.operation.deprecate",
      "api.version.add",
      "api.version.deprecate",
      "api.version.retire",
    ]);
  });

  it("names what is wrong: an operation the document does not declare, a version that does not exist, a bad date", { timeout: 120_000 }, async () => {
    const unknown = await admin("api", "deprecate", "--api", "orders", "--version", "v3", "--operation", "DELETE /v3/orders");
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain("--operation: v3's document declares no DELETE /v3/orders");
    expect((await admin("api", "retire", "--api", "orders", "--version", "v9")).stderr).toContain('The API "orders" has no version "v9"');
    expect((await admin("api", "deprecate", "--api", "orders", "--version", "v3", "--sunset", "soon")).stderr).toContain("--sunset must be an ISO 8601 date");
  });
});

describe("the API's admin page", () => {
  it("lists the versions, deprecates an operation with a date and a sunset, names a wrong field, and is for admins only", async () => {
    const admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
    const page = await (await admin.get("/admin/apis/orders")).text();
    expect(page).toContain("Deprecate a version or an operation");
    expect(page).toMatch(/<th scope="row"[^>]*>v1<\/th><td[^>]*>retired<\/td>/);

    const deprecated = await admin.post("/api/portal/admin/apis/orders/deprecate", {
      version: "v3",
      operation: "GET /v3/orders",
      date: "2027-03-01",
      sunset: "2027-09-30",
    });
    expect(deprecated.status).toBe(200);
    const marked = await db.apiOperationDeprecation.findFirstOrThrow({ where: { path: "/v3/orders", apiVersion: { version: "v3" } } });
    expect(marked).toMatchObject({ method: "GET", deprecatedAt: new Date("2027-03-01T00:00:00Z"), sunsetAt: new Date("2027-09-30T00:00:00Z") });
    expect(await db.auditEvent.count({ where: { action: "api.operation.deprecate", actorLabel: "admin@example.com" } })).toBe(1);

    const backwards = await admin.post("/api/portal/admin/apis/orders/deprecate", { version: "v3", date: "2027-03-01", sunset: "2027-01-01" });
    expect(backwards.status).toBe(400);
    expect(((await backwards.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual(["sunset"]);
    const badDate = await admin.post("/api/portal/admin/apis/orders/deprecate", { version: "v3", sunset: "soon" });
    expect(((await badDate.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual(["sunset"]);

    const developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
    expect((await developer.post("/api/portal/admin/apis/orders/retire", { version: "v3" })).status).toBe(403);
    expect((await db.apiVersion.findFirstOrThrow({ where: { version: "v3", api: { slug: "orders" } } })).status).toBe("current");
  });
});
