// Admin commands run in the test's process by the function the compiled CLI runs
// (`runAdmin`, lib/admin-cli/run.ts): each reads its own environment, acts on its own
// database and returns its exit code, leaving nothing to the next command or to the process.
import { afterAll, beforeAll, expect, it } from "vitest";
import { commandScope } from "../../lib/command-scope";
import { databaseLabel } from "../../lib/database-label";
import { createMigratedTestDatabase } from "../../lib/database/migrated-template";
import type { TestDatabase } from "../../lib/database/test-databases";
import { runAdmin } from "../support/admin-cli";

let first: TestDatabase;
let second: TestDatabase;

beforeAll(async () => {
  [first, second] = await Promise.all([createMigratedTestDatabase(), createMigratedTestDatabase()]);
});

afterAll(async () => {
  await Promise.all([first?.drop(), second?.drop()]);
});

async function emails(databaseUrl: string): Promise<{ database: string; emails: string[] }> {
  const listed = await runAdmin(databaseUrl, "user", "list", "--json");
  expect(listed.code, listed.stderr).toBe(0);
  const { database, users } = JSON.parse(listed.stdout) as { database: string; users: { email: string }[] };
  return { database, emails: users.map((user) => user.email) };
}

it("acts on the database its environment names, one command after another", async () => {
  const created = await runAdmin(first.url, "user", "create", "--email", "ops@example.com", "--password", "ops-password-1", "--role", "ADMIN", "--json");
  expect(created.code, created.stderr).toBe(0);
  expect(JSON.parse(created.stdout)).toMatchObject({ database: databaseLabel(first.url), email: "ops@example.com" });
  expect(await emails(second.url)).toEqual({ database: databaseLabel(second.url), emails: [] });
  expect(await emails(first.url)).toEqual({ database: databaseLabel(first.url), emails: ["ops@example.com"] });
});

it("returns its exit code and what it wrote, and leaves the process's exit code and scope as they were", async () => {
  const exitCode = process.exitCode;
  const again = await runAdmin(first.url, "user", "create", "--email", "ops@example.com", "--password", "ops-password-1", "--role", "ADMIN");
  expect(again.code).toBe(2);
  expect(again.stdout).toBe("");
  expect(again.stderr).toBe(
    `--email: a user "ops@example.com" exists already; to change its password, run user set-password (database: ${databaseLabel(first.url)})\n`,
  );
  expect(process.exitCode).toBe(exitCode);
  expect(commandScope()).toBeUndefined();
});

it("refuses a configuration its environment gets wrong, and the next command reads its own", async () => {
  const refused = await runAdmin("mysql://127.0.0.1/gatehouse", "user", "list");
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("DATABASE_URL: must start with file: or postgres(ql)://");
  expect((await emails(second.url)).database).toBe(databaseLabel(second.url));
});
