import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDb } from "../../lib/db";
import { readMigrations } from "../../lib/database/migrations";
import { createPostgresDatabase, POSTGRES_SERVER_URL } from "../../lib/database/test-databases";

const ROOT = join(import.meta.dirname, "..", "..");
const INSTANCES = 3;
const ROUNDS = 5;

/** What `npm start` does before it serves: migrate and seed (environments and built-in APIs), in a process of its own. */
function prepareInProcess(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        "./lib/runtime/server-only-hook.mjs",
        "-e",
        'import("./server/prepare-database.ts").then((m) => m.prepareDatabase()).then(() => process.exit(0))',
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", APP_ENV: "test", DATABASE_URL: databaseUrl, SEED_DEMO: "0" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

describe.skipIf(!POSTGRES_SERVER_URL)("instances started together on an empty PostgreSQL database", () => {
  it(`all come up, migrate once and seed once (${INSTANCES} instances, ${ROUNDS} rounds)`, { timeout: 300_000 }, async () => {
    const migrations = readMigrations("postgresql").migrationDirectories.length;
    for (let round = 0; round < ROUNDS; round++) {
      const database = await createPostgresDatabase(POSTGRES_SERVER_URL!);
      try {
        const results = await Promise.all(Array.from({ length: INSTANCES }, () => prepareInProcess(database.url)));
        for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });
        const db = createDb(database.url);
        try {
          expect(await db.environment.count()).toBe(4);
          expect((await db.api.findMany({ select: { slug: true } })).map((api) => api.slug).sort()).toEqual([
            "global-sso-token",
            "notifications",
            "platform-token",
          ]);
          const applied = await db.$queryRawUnsafe<{ count: bigint }[]>("SELECT count(*) AS count FROM _prisma_migrations");
          expect(Number(applied[0]!.count)).toBe(migrations);
        } finally {
          await db.$disconnect();
        }
      } finally {
        await database.drop();
      }
    }
  });
});
