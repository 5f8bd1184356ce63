// `config export | diff | apply`: the gateway's environments and proxied APIs kept in a
// file, applied in one audited transaction, with every error named by path and line.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { runAdmin } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { eventually, openDb } from "./gateway-support";

/** The issue's example, as an operator would write it. */
const EXAMPLE = `apis:
  - slug: orders
    name: Orders
    summary: Orders of the shop
    version: 1.0.0
    visibility: protected
    scopes: [orders:read]
    environments:
      sso-qa:
        targets:
          - url: http://127.0.0.1:4101
            weight: 1
          - url: http://127.0.0.1:4102
            weight: 1
        healthCheck: { path: /health, intervalSeconds: 1, unhealthyAfter: 2, healthyAfter: 2 }
        retries: 1
        timeouts: { connectMs: 1000, responseMs: 5000 }
`;

const DOCUMENT = `openapi: 3.1.0
info: { title: Catalog, version: 2.0.0 }
paths:
  /v1/items:
    get:
      responses:
        "200": { description: The items }
`;

let server: TestServer;
let db: Db;
let upstream: Server;
const folder = mkdtempSync(join(tmpdir(), "gatehouse-config-"));

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

function config(...args: string[]) {
  return runAdmin(server.databaseUrl, "config", ...args);
}

async function configAudits(): Promise<number> {
  return db.auditEvent.count({ where: { action: "config.apply" } });
}

beforeAll(async () => {
  upstream = createServer((req, res) => res.end(JSON.stringify({ path: req.url })));
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  server = await startServer();
  db = openDb(server);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe("config apply", { timeout: 120_000 }, () => {
  it("applies the example as written, once: the same file again prints no changes", async () => {
    const path = file("example.yaml", EXAMPLE);
    const diff = await config("diff", "-f", path);
    expect(diff).toMatchObject({ code: 0, stdout: "would change:\n  create api orders\n" });
    expect(await db.api.count({ where: { slug: "orders" } })).toBe(0);

    const first = await config("apply", "-f", path);
    expect(first).toMatchObject({ code: 0, stdout: "changed:\n  create api orders\n" });
    const orders = await db.api.findUniqueOrThrow({ where: { slug: "orders" }, include: { scopes: true, environments: { include: { environment: true } } } });
    expect(orders).toMatchObject({ kind: "PROXY", isPublic: false, version: "1.0.0", summary: "Orders of the shop" });
    expect(orders.scopes.map((scope) => scope.name)).toEqual(["orders:read"]);
    expect(orders.environments.map((served) => served.environment.slug)).toEqual(["sso-qa"]);
    expect(orders.environments[0]!.upstream).toMatchObject({
      targets: [
        { url: "http://127.0.0.1:4101", weight: 1 },
        { url: "http://127.0.0.1:4102", weight: 1 },
      ],
      healthCheck: { path: "/health", intervalSeconds: 1, unhealthyAfter: 2, healthyAfter: 2, timeoutMs: 2000 },
      retries: 1,
      timeouts: { connectMs: 1000, responseMs: 5000 },
    });
    const audited = await db.auditEvent.findFirstOrThrow({ where: { action: "config.apply" }, orderBy: { at: "desc" } });
    expect(audited.actorLabel).toBe("cli");
    expect(JSON.parse(JSON.stringify(audited.details))).toEqual({ changes: [{ action: "create", kind: "api", slug: "orders" }] });

    const audits = await configAudits();
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });
    expect(await configAudits()).toBe(audits);
  });

  it("gives no changes when what export wrote is applied", async () => {
    const exported = join(folder, "exported.yaml");
    expect((await config("export", "-f", exported)).code).toBe(0);
    expect(await config("apply", "-f", exported)).toMatchObject({ code: 0, stdout: "no changes\n" });
    const printed = await config("export");
    expect(printed.stdout).toMatch(/^# yaml-language-server: \$schema=\S+\/schemas\/gatehouse-config\.json\n/);
    expect(await config("apply", "-f", file("printed.yaml", printed.stdout))).toMatchObject({ code: 0, stdout: "no changes\n" });
  });

  it("sets an API's authentication methods through their audited service, and [oauth2] again when the file leaves them out", async () => {
    const keyed = file("keyed.yaml", EXAMPLE.replace("    visibility: protected\n", "    visibility: protected\n    authentication: [apiKey, oauth2]\n"));
    expect(await config("apply", "-f", keyed)).toMatchObject({ code: 0, stdout: "changed:\n  update api orders: authentication\n" });
    expect((await db.api.findUniqueOrThrow({ where: { slug: "orders" } })).authentication).toBe("apiKey oauth2");
    const audited = await db.auditEvent.findFirstOrThrow({ where: { action: "api.authentication", targetId: "orders" }, orderBy: { at: "desc" } });
    expect(audited).toMatchObject({ actorLabel: "cli", details: { from: ["oauth2"], to: ["apiKey", "oauth2"] } });
    expect(await config("apply", "-f", file("example.yaml", EXAMPLE))).toMatchObject({ code: 0, stdout: "changed:\n  update api orders: authentication\n" });
    expect((await db.api.findUniqueOrThrow({ where: { slug: "orders" } })).authentication).toBe("oauth2");
    expect(await db.auditEvent.count({ where: { action: "api.authentication", targetId: "orders" } })).toBe(2);
  });

  it("brings the file back in line with export after a version added from the CLI, so diff finds no changes", async () => {
    const path = file(
      "books.yaml",
      `apis:
  - slug: books
    name: Books
    summary: The shop's books
    version: 1.0.0
    visibility: public
    environments:
      sso-qa:
        targets: [{ url: "http://127.0.0.1:4301" }]
`,
    );
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "changed:\n  create api books\n" });
    const v2 = file("books-v2.yaml", DOCUMENT.replace("title: Catalog", "title: Books").replace("/v1/items", "/v2/items"));
    const added = await runAdmin(server.databaseUrl, "api", "version", "add", "--api", "books", "--version", "v2", "--openapi", v2, "--status", "current");
    expect(added.code).toBe(0);
    expect((await config("diff", "-f", path)).stdout).toMatch(/^would change:\n {2}update api books: /);

    expect((await config("export", "-f", path)).code).toBe(0);
    expect(await config("diff", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });
    // The tests below prune against the registry as the others left it.
    await db.api.deleteMany({ where: { slug: "books" } });
  });

  it("changes nothing when the file has errors, and names each by its path and line", async () => {
    const before = { apis: await db.api.count(), audits: await configAudits() };
    const path = file(
      "invalid.yaml",
      `environments:
  - slug: new-env
    name: New
    credentialType: PLATFORM
apis:
  - slug: catalog
    name: Catalog
    summary: What the shop sells
    version: 2.0.0
    visibility: public
    colour: blue
    environments:
      new-env:
        targets:
          - url: http://127.0.0.1:4201
          - url: ftp://127.0.0.1:4202
      nowhere:
        targets: [{ url: "http://127.0.0.1:4203" }]
  - slug: ledger
    name: Ledger
    summary: The shop's books
    version: 1.0.0
    visibility: public
    openapi: ./missing.yaml
    environments:
      sso-qa:
        targets: [{ url: "http://127.0.0.1:4204" }]
`,
    );
    const run = await config("apply", "-f", path);
    expect(run.code).toBe(1);
    // One run lists every error: the shape's, the files' and the references', each where it is.
    expect(run.stdout).toContain(`${path} has 4 error(s); nothing was changed:\n`);
    expect(run.stdout).toContain(`${path}:11: apis[0].colour: unknown field`);
    expect(run.stdout).toContain(`${path}:16: apis[0].environments.new-env.targets[1].url: Enter an http(s) URL`);
    expect(run.stdout).toContain(`${path}:17: apis[0].environments.nowhere: there is no environment "nowhere"`);
    expect(run.stdout).toMatch(new RegExp(`${path}:24: apis\\[1\\]\\.openapi: .*missing\\.yaml`));

    // With the shape right, the references are still checked before anything is written.
    const unknownEnvironment = await config(
      "apply",
      "-f",
      file("unknown-env.yaml", readFileSync(path, "utf8").replace("    colour: blue\n", "").replace("ftp:", "http:")),
    );
    expect(unknownEnvironment.code).toBe(1);
    expect(unknownEnvironment.stdout).toMatch(/unknown-env\.yaml:16: apis\[0\]\.environments\.nowhere: there is no environment "nowhere"/);
    expect({ apis: await db.api.count(), audits: await configAudits() }).toEqual(before);
    expect(await db.environment.count({ where: { slug: "new-env" } })).toBe(0);
  });

  it("words a .json file's syntax error as JSON's, at its line and column", async () => {
    const path = file("broken.json", '{\n  "apis": [],\n  "environments": \n}\n');
    const run = await config("apply", "-f", path);
    expect(run).toMatchObject({
      code: 1,
      stdout: `${path} has 1 error(s); nothing was changed:\n${path}:4:1: not valid JSON: expected a value, found "}"\n`,
    });
  });

  it("refuses a YAML file whose aliases expand without bound (a billion laughs), changing nothing", async () => {
    const levels = Array.from({ length: 8 }, (_, level) => `l${level + 1}: &l${level + 1} [${Array(9).fill(`*l${level}`).join(", ")}]`);
    const path = file("laughs.yaml", ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]", ...levels, "environments: *l8", ""].join("\n"));
    const before = { apis: await db.api.count(), audits: await configAudits() };
    const run = await config("apply", "-f", path);
    expect(run).toMatchObject({
      code: 1,
      stdout: `${path} has 1 error(s); nothing was changed:\n${path}: cannot be read: Excessive alias count indicates a resource exhaustion attack\n`,
    });
    expect({ apis: await db.api.count(), audits: await configAudits() }).toEqual(before);
  });

  it("reads the OpenAPI document from a path beside the file, creates environments, and proxies through them", async () => {
    file("catalog.yaml", DOCUMENT);
    const path = file(
      "catalog-config.yaml",
      `environments:
  - slug: catalog-env
    name: Catalog environment
    credentialType: PLATFORM
    selfService: true
    rateLimit: { burst: 20, perSecond: 10 }
apis:
  - slug: catalog
    name: Catalog
    summary: What the shop sells
    version: 2.0.0
    visibility: public
    openapi: ./catalog.yaml
    environments:
      catalog-env:
        targets: [{ url: "http://127.0.0.1:${(upstream.address() as AddressInfo).port}/base" }]
`,
    );
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "changed:\n  create environment catalog-env\n  create api catalog\n" });
    const env = await db.environment.findUniqueOrThrow({ where: { slug: "catalog-env" } });
    expect(env).toMatchObject({ rateLimitBurst: 20, rateLimitPerSecond: 10, selfService: true, tokenLifetimeSeconds: 3600 });
    const catalog = await db.api.findUniqueOrThrow({ where: { slug: "catalog" } });
    expect(JSON.parse(catalog.openapiDocument!).info.title).toBe("Catalog");
    expect(
      await eventually(async () => {
        const response = await fetch(`${server.url}/gw/catalog-env/catalog/v1/items`);
        return response.status === 200 && (await response.json()).path === "/base/v1/items";
      }),
    ).toBe(true);

    // A changed field is named; --dry-run shows it and writes nothing.
    const changed = file("catalog-changed.yaml", readFileSync(path, "utf8").replace("burst: 20", "burst: 40").replace("version: 2.0.0", "version: 2.1.0"));
    expect(await config("apply", "-f", changed, "--dry-run")).toMatchObject({
      code: 0,
      stdout: "would change (dry run):\n  update environment catalog-env: rateLimit\n  update api catalog: version\n",
    });
    expect((await db.environment.findUniqueOrThrow({ where: { slug: "catalog-env" } })).rateLimitBurst).toBe(20);
  });

  it("serves an API's guides from Markdown files beside the file, and keeps them when a file leaves them out", async () => {
    file("orders-start.md", "Call `GET /v1/orders` with a token.\n\n## Paging\n\nFollow `next` to the end.\n");
    const guides =
      "    guides:\n" +
      "      - { slug: getting-started, title: Getting started with Orders, markdown: ./orders-start.md }\n" +
      '      - { slug: errors, title: Errors of Orders, content: "Every error is problem+json." }\n';
    const path = file("orders-guides.yaml", EXAMPLE.replace("    scopes: [orders:read]\n", `    scopes: [orders:read]\n${guides}`));
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "changed:\n  update api orders: guides\n" });
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });

    const markdown = await fetch(`${server.url}/apis/orders/guides/getting-started.md`);
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await markdown.text()).toBe("# Getting started with Orders\n\nCall `GET /v1/orders` with a token.\n\n## Paging\n\nFollow `next` to the end.\n");
    const page = await fetch(`${server.url}/apis/orders/guides/getting-started`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<h1[^>]*>Getting started with Orders<\/h1>/);
    expect(html).toMatch(/<h4[^>]*>Paging<\/h4>/);
    expect(html).toContain('href="/apis/orders/guides/errors"');
    const search = await (await fetch(`${server.url}/apis?q=follow+next+end`)).text();
    expect(search).toContain('href="/apis/orders/guides/getting-started"');

    // Export writes the guides' text inline; applied again, it changes nothing.
    const exported = await config("export");
    expect(exported.stdout).toContain("content: Every error is problem+json.");
    expect(await config("apply", "-f", file("exported-guides.yaml", exported.stdout))).toMatchObject({ code: 0, stdout: "no changes\n" });
    // A file without `guides` leaves them alone.
    expect(await config("apply", "-f", file("no-guides.yaml", EXAMPLE))).toMatchObject({ code: 0, stdout: "no changes\n" });
    expect((await fetch(`${server.url}/apis/orders/guides/errors.md`)).status).toBe(200);

    const missing = await config("apply", "-f", file("missing-guide.yaml", readFileSync(path, "utf8").replace("./orders-start.md", "./nowhere.md")));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/missing-guide\.yaml:\d+: apis\[0\]\.guides\[0\]\.markdown: cannot read \.\/nowhere\.md \(ENOENT\)/);
  });

  it("leaves out what the file does not name, unless --prune is given", async () => {
    const path = file(
      "only-orders.yaml",
      EXAMPLE.replace("apis:", "environments:\n  - { slug: sso-qa, name: Global SSO QA, credentialType: GLOBAL_SSO, selfService: true }\napis:"),
    );
    expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });
    const pruned = await config("apply", "-f", path, "--prune", "--json");
    expect(pruned.code).toBe(1);
    // Seeded environments hold credentials: they stay, and so does everything else.
    expect(JSON.parse(pruned.stdout).errors.map((error: { message: string }) => error.message)).toContainEqual(
      expect.stringMatching(/environment "platform-dev" is not in the file but has \d+ credential/),
    );
    expect(await db.api.count({ where: { slug: "catalog" } })).toBe(1);

    const keepEnvironments = (await config("export")).stdout.replace(/^apis:[\s\S]*$/m, "");
    const withoutCatalog = file("without-catalog.yaml", `${keepEnvironments}${EXAMPLE}`);
    expect(await config("apply", "-f", withoutCatalog, "--prune")).toMatchObject({ code: 0, stdout: "changed:\n  delete api catalog\n" });
    expect(await db.api.count({ where: { slug: "catalog" } })).toBe(0);
    expect(await db.api.count({ where: { slug: "notifications" } })).toBe(1);
  });
});

/** A public API whose one guide, or OpenAPI document, is the file `source` names. */
function leaky(slug: string, field: "markdown" | "openapi", source: string): string {
  const named = field === "markdown" ? `    guides:\n      - { slug: env, title: Env, markdown: "${source}" }\n` : `    openapi: "${source}"\n`;
  return `apis:
  - slug: ${slug}
    name: Leaky
    summary: Publishes what it names
    version: 1.0.0
    visibility: public
${named}    environments:
      sso-qa:
        targets: [{ url: "http://127.0.0.1:4101" }]
`;
}

describe("files a configuration file names", { timeout: 120_000 }, () => {
  // The configuration sits in repo/gatehouse/, as in a repository; secret.md beside the repository.
  const repo = join(folder, "repo");
  const configFolder = join(repo, "gatehouse");
  mkdirSync(configFolder, { recursive: true });
  writeFileSync(join(folder, "secret.md"), "AUTH_SECRET=from-the-runner\n");
  writeFileSync(join(repo, "shared.md"), "Shared by the repository's configurations.\n");
  symlinkSync(join(folder, "secret.md"), join(configFolder, "inside-link.md"));
  const refusal = /is outside \S+: a configuration file names only files inside its folder, or under --root$/m;

  it.each([
    ["a path up out of the folder", "markdown", "../../secret.md"],
    ["an absolute path", "markdown", "/etc/passwd"],
    ["the process's environment", "markdown", "../../../../../../../../../../proc/self/environ"],
    ["the process's environment by its absolute path", "markdown", "/proc/self/environ"],
    ["a symbolic link in the folder to a file outside it", "markdown", "./inside-link.md"],
    ["an OpenAPI document outside the folder", "openapi", "../../../../../../../../../../etc/passwd"],
  ] as const)("refuses %s with the line that names it, and publishes nothing", async (_, field, source) => {
    const path = join(configFolder, "leaky.yaml");
    writeFileSync(path, leaky("leaky", field, source));
    for (const action of ["diff", "apply"]) {
      const run = await config(action, "-f", path);
      expect(run.code).toBe(1);
      const line = field === "markdown" ? 8 : 7;
      expect(run.stdout.split("\n")[1]).toMatch(`${path}:${line}: apis[0].${field === "markdown" ? "guides[0].markdown" : "openapi"}: ${source} `);
      expect(run.stdout.split("\n")[1]).toMatch(refusal);
    }
    expect(await db.api.count({ where: { slug: "leaky" } })).toBe(0);
  });

  it("reads a file outside the folder under an explicit --root, and diff shows each file's path and hash", async () => {
    const path = join(configFolder, "shared.yaml");
    writeFileSync(path, leaky("shared-guide", "markdown", "../shared.md"));
    expect((await config("diff", "-f", path)).stdout).toMatch(refusal);
    const sha256 = createHash("sha256")
      .update(readFileSync(join(repo, "shared.md")))
      .digest("hex");
    const diff = await config("diff", "-f", path, "--root", repo);
    expect(diff).toMatchObject({ code: 0, stdout: `would change:\n  create api shared-guide\nfiles read:\n  shared.md sha256:${sha256}\n` });
    expect(JSON.parse((await config("diff", "-f", path, "--root", repo, "--json")).stdout).files).toEqual([{ path: "shared.md", sha256 }]);
    expect((await config("apply", "-f", path, "--root", repo)).code).toBe(0);
    expect(await (await fetch(`${server.url}/apis/shared-guide/guides/env.md`)).text()).toContain("Shared by the repository's configurations.");
    // --root does not reach past itself.
    const secret = join(configFolder, "secret-under-root.yaml");
    writeFileSync(secret, leaky("leaky", "markdown", "../../secret.md"));
    expect((await config("apply", "-f", secret, "--root", repo)).stdout).toMatch(refusal);
    expect(await db.api.count({ where: { slug: "leaky" } })).toBe(0);
  });

  it("refuses an OpenAPI document larger than the cap, naming the file and the cap", async () => {
    writeFileSync(join(configFolder, "huge.yaml"), `${DOCUMENT}# ${"x".repeat(2_000_000)}\n`);
    const path = join(configFolder, "huge-document.yaml");
    writeFileSync(path, leaky("huge-document", "openapi", "./huge.yaml"));
    const run = await config("apply", "-f", path);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${path}:7: apis[0].openapi: ./huge.yaml is larger than 2 MB (2000000 bytes), the cap for a file a configuration file names`);
    expect(await db.api.count({ where: { slug: "huge-document" } })).toBe(0);
  });

  it("refuses a configuration file larger than the cap, naming it and the cap", async () => {
    const path = file("huge-config.yaml", `${EXAMPLE.replace("slug: orders", "slug: huge-config")}# ${"x".repeat(5_000_000)}\n`);
    const run = await config("apply", "-f", path);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`${path} has 1 error(s); nothing was changed:\n${path}: larger than 5 MB (5000000 bytes), the cap for a configuration file\n`);
    expect(await db.api.count({ where: { slug: "huge-config" } })).toBe(0);
  });
});

describe("config apply through a pipe", { timeout: 120_000 }, () => {
  it("prints every error before it ends, however many there are", async () => {
    const entries = Array.from({ length: 5000 }, (_, index) => `  - { slug: api-${index}, colour: blue }\n`);
    const path = file("many-errors.yaml", `apis:\n${entries.join("")}`);
    const run = await config("apply", "-f", path);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/has (\d+) error\(s\); nothing was changed:$/);
    const count = Number(/has (\d+) error/.exec(lines[0]!)![1]);
    expect(count).toBeGreaterThan(20_000);
    expect(lines).toHaveLength(count + 1);
    expect(lines.at(-1)).toBe(`${path}:5001: apis[4999].colour: unknown field`);
  });
});

describe("the configuration file's JSON Schema", () => {
  it("is served for editors at /schemas/gatehouse-config.json", async () => {
    const response = await fetch(`${server.url}/schemas/gatehouse-config.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/schema+json");
    const schema = await response.json();
    expect(schema.title).toBe("Gatehouse configuration file");
    expect(Object.keys(schema.properties)).toEqual(["environments", "plans", "apis", "trust"]);
  });
});
