// A fresh clone configured only by a `.env`: the server, the portal's thread, the seed and
// the admin CLI must all read it, so none of them falls back to the default SQLite file.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_NODE_ARGS, SERVER_NODE_ARGS } from "../../server/server-command";
import { createPostgresDatabase, POSTGRES_SERVER_URL, type TestDatabase } from "../../lib/database/test-databases";
import { freePort } from "../support/server";

const ROOT = join(import.meta.dirname, "..", "..");
const run = promisify(execFile);
/** The db script's arguments with absolute paths, since it runs in the folder of the `.env`. */
const NODE_IMPORTS = [
  "--import",
  pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href,
  "--import",
  pathToFileURL(join(ROOT, "lib/runtime/server-only-hook.mjs")).href,
];
/** A command's arguments with its paths made absolute. */
const absolute = (args: readonly string[]) => args.map((arg) => (arg.startsWith("-") ? arg : join(ROOT, arg)));
/** `npm start`'s command. */
const SERVER_ARGS = absolute(SERVER_NODE_ARGS);
/** Nothing Gatehouse reads: only what a shell has, and what `npm start` sets. */
const BARE_ENV = { PATH: process.env.PATH, HOME: process.env.HOME, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? "" };

let database: TestDatabase;
let folder: string;
let port: number;
let server: ChildProcess;
let output = "";

async function waitUntilListening(): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}:\n${output}`);
    if (output.includes("Gatehouse is listening")) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`server did not start:\n${output}`);
}

async function node(args: readonly string[]): Promise<string> {
  const { stdout } = await run(process.execPath, args, {
    cwd: folder,
    env: { ...BARE_ENV, NODE_ENV: "production", LOG_LEVEL: "silent" },
  });
  return stdout;
}

beforeAll(async () => {
  database = await createPostgresDatabase(POSTGRES_SERVER_URL ?? "postgresql://root@127.0.0.1:5432/postgres");
  port = await freePort();
  folder = mkdtempSync(join(tmpdir(), "gatehouse-dotenv-"));
  writeFileSync(join(folder, ".env"), `DATABASE_URL=${database.url}\nPORT=${port}\n`);
  server = spawn(process.execPath, SERVER_ARGS, {
    cwd: folder,
    env: { ...BARE_ENV, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitUntilListening();
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (server.exitCode === null) server.kill("SIGKILL");
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
  await database?.drop();
});

function seededClient(envSlug: string): { clientId: string; clientSecret: string } {
  const match = new RegExp(`client\\s+${envSlug}\\s+client id: (gci_\\w+)\\s+secret: (gsk_[\\w-]+)`).exec(output);
  if (!match) throw new Error(`no ${envSlug} credential in the start-up output:\n${output}`);
  return { clientId: match[1]!, clientSecret: match[2]! };
}

describe("configuration from .env only", () => {
  it("names the PostgreSQL database and the port in the banner, then the demo accounts, last before listening", () => {
    const hidden = new URL(database.url);
    expect(output).toContain(`database            PostgreSQL ${hidden.toString()}`);
    expect(output).toContain(`portal and gateway  http://localhost:${port}  (port ${port})`);
    expect(output).toContain("Redis               not used");
    const demo = output.indexOf("Gatehouse demo data");
    const hint = output.indexOf("Lost a password? npm run --silent admin -- user set-password");
    const listening = output.indexOf("Gatehouse is listening");
    expect(output.indexOf("portal and gateway")).toBeLessThan(demo);
    expect(demo).toBeLessThan(hint);
    expect(hint).toBeLessThan(listening);
  });

  it("seeds and migrates the PostgreSQL database", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT email FROM "User" ORDER BY email`);
      expect(rows.map((row) => row.email)).toEqual(["admin@example.com", "developer@example.com"]);
    } finally {
      await client.end();
    }
  });

  it("serves the gateway and the portal from that database, on PORT, advertising PORT", async () => {
    const origin = `http://127.0.0.1:${port}`;
    const { clientId, clientSecret } = seededClient("sso-qa");
    const token = await fetch(`${origin}/gw/sso-qa/oauth2/token`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(token.status).toBe(200);
    const catalog = await fetch(`${origin}/apis`);
    expect(catalog.status).toBe(200);
    expect(await catalog.text()).toContain("Notifications API");
    const document = await fetch(`${origin}/apis/notifications/openapi.json?env=sso-qa`);
    expect(document.status).toBe(200);
    expect((await document.json()).servers[0].url).toBe(`http://localhost:${port}/gw/sso-qa/notifications`);
  });

  it("makes the admin CLI and the seed act on the same database, and say so", async () => {
    const listed = JSON.parse(await node([...absolute(ADMIN_NODE_ARGS), "credential", "list", "--env", "sso-qa", "--json"]));
    expect(listed.database).toBe(`PostgreSQL ${new URL(database.url).toString()}`);
    expect(listed.credentials.map((credential: { clientId: string }) => credential.clientId)).toContain(seededClient("sso-qa").clientId);
    expect(await node([...NODE_IMPORTS, join(ROOT, "scripts/db.ts"), "seed"])).toContain(`database: PostgreSQL ${new URL(database.url).toString()}`);
  });

  it("runs the README's first call, which stops with the token endpoint's answer when the secret is wrong", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const script = /## Call an API\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    const { clientId, clientSecret } = seededClient("sso-qa");
    const env = { ...BARE_ENV, NODE_ENV: "production" as const, GATEHOUSE_URL: `http://127.0.0.1:${port}`, CLIENT_ID: clientId };
    const called = await run("sh", ["-c", script], { env: { ...env, CLIENT_SECRET: clientSecret } });
    expect(JSON.parse(called.stdout)).toHaveProperty("items");
    const failed = await run("sh", ["-c", script], { env: { ...env, CLIENT_SECRET: "gsk_wrong" } }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).not.toBe(0);
    expect(failed?.stderr).toContain("invalid_client");
    expect(failed?.stdout).toBe("");
  });
});
