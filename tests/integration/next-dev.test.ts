import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db";
import { seed } from "../../prisma/seed";
import { applyMigrations } from "../../lib/database/migrations";
import { DEV_NODE_ARGS } from "../../server/server-command";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";
import { freePort } from "../support/server";

const ROOT = join(import.meta.dirname, "..", "..");

let database: TestDatabase;
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await applyMigrations(database.url);
  const db = createDb(database.url);
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  await db.$disconnect();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [...DEV_NODE_ARGS, "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "development", NEXT_DIST_DIR: ".next-dev-test", DATABASE_URL: database.url, PUBLIC_URL: url, APP_ENV: "test" },
    stdio: "ignore",
  });
}, 60_000);

afterAll(async () => {
  child?.kill("SIGTERM");
  await database?.drop();
});

/** next dev compiles a route on its first request, so the first answer can take a while. */
async function fetchWhenReady(path: string): Promise<Response> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      return await fetch(`${url}${path}`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

describe("next dev serves the gateway through its catch-all route", () => {
  it("answers an unknown environment with a 404 problem", { timeout: 120_000 }, async () => {
    const response = await fetchWhenReady("/gw/nowhere/notifications/v1/notifications");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toMatchObject({ status: 404, detail: expect.stringMatching(/^There is no environment "nowhere"\. Environments: sso-qa, /) });
  });
});
