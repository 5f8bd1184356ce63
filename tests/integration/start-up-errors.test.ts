// Start-up problems an operator can fix end with one line on stderr that says what to do.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_ARGS } from "../../server/server-command";
import { createSqliteDatabase } from "../../lib/database/test-databases";
import { freePort, startServer, type TestServer } from "../support/server";

const ROOT = join(import.meta.dirname, "..", "..");

/** Runs `npm start`'s command until it exits; none of these starts may succeed. */
function failedStart(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, SERVER_NODE_ARGS, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? "",
      APP_ENV: "test",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

function expectOneLine(stderr: string, text: string): void {
  expect(stderr.trim().split("\n")).toEqual([expect.stringContaining(text)]);
}

describe("start-up errors", () => {
  it("a bad AUTH_SECRET", async () => {
    const result = await failedStart({ AUTH_SECRET: "too-short" });
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, "AUTH_SECRET: must be at least 32 characters (for example from `openssl rand -base64 32`)");
  });

  it("a weak seed password", async () => {
    const result = await failedStart({ SEED_ADMIN_PASSWORD: "only-eleven" });
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, "SEED_ADMIN_PASSWORD: must be at least 12 characters");
  });

  it("a brand colour that is no colour, and a logo file that is not there", async () => {
    const accent = await failedStart({ PORTAL_ACCENT: "teal" });
    expect(accent.code).toBe(1);
    expectOneLine(accent.stderr, "PORTAL_ACCENT: must be a CSS hex colour, #rgb or #rrggbb");
    const logo = await failedStart({ PORTAL_LOGO: "/srv/brand/missing-logo.png" });
    expect(logo.code).toBe(1);
    expectOneLine(logo.stderr, "PORTAL_LOGO: cannot read the file /srv/brand/missing-logo.png");
  });

  it("a database that does not answer", async () => {
    const port = await freePort();
    const result = await failedStart({ DATABASE_URL: `postgresql://root:secret-password@127.0.0.1:${port}/gatehouse` });
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, `Cannot use the database PostgreSQL postgresql://root@127.0.0.1:${port}/gatehouse`);
    expect(result.stderr).toContain("DATABASE_URL");
    expect(result.stderr + result.stdout).not.toContain("secret-password");
  });

  it("a Redis that does not answer", async () => {
    const port = await freePort();
    const result = await failedStart({ REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, `Cannot reach Redis at redis://127.0.0.1:${port}`);
    expect(result.stderr).toContain("unset REDIS_URL");
  });

  it("a port that is taken, before seeding: the next start, on a free port, prints the demo accounts", { timeout: 120_000 }, async () => {
    const database = createSqliteDatabase();
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, resolve));
    let served: TestServer | undefined;
    try {
      const result = await failedStart({ PORT: String(port), DATABASE_URL: database.url });
      expect(result.code).toBe(1);
      expectOneLine(result.stderr, `Port ${port} is already in use. Stop the process that holds it, or set PORT`);
      expect(result.stdout).not.toContain("Gatehouse demo data");
      expect(result.stderr).not.toMatch(/\n\s+at /);
      served = await startServer({ database });
      expect(served.output()).toContain("Gatehouse demo data");
    } finally {
      holder.close();
      await (served ? served.stop() : database.drop());
    }
  });
});
