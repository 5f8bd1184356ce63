import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { seed } from "../../prisma/seed";
import { ADMIN_NODE_ARGS } from "../../server/server-command";
import { inheritedEnv } from "../support/child-env";
import { migratedDatabase } from "../../lib/database/migrated-database";

const ROOT = join(import.meta.dirname, "..", "..");

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let clientId: string;

async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...ADMIN_NODE_ARGS, ...args], {
      cwd: ROOT,
      env: { ...inheritedEnv(), NODE_ENV: "test", DATABASE_URL: database.database.url, LOG_LEVEL: "silent" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  database = await migratedDatabase();
  await seed(database.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  const application = await ensureApplication({ db: database.db, actor: CLI_ACTOR, ownerId: null, name: "CLI App" });
  ({
    credential: { clientId },
  } = await createCredential({ db: database.db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa", withSecret: false }));
});

afterAll(async () => {
  await database?.close();
});

describe("admin notification create", () => {
  it("creates --count notifications for the client and prints their ids", async () => {
    const result = await admin(
      "notification",
      "create",
      "--env",
      "sso-qa",
      "--client",
      clientId,
      "--title",
      "Deploy finished",
      "--body",
      "Version 2 is live.",
      "--category",
      "release",
      "--severity",
      "warning",
      "--count",
      "3",
      "--json",
    );
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const { ids } = JSON.parse(result.stdout) as { ids: string[] };
    expect(ids).toHaveLength(3);
    const rows = await database.db.notification.findMany({ where: { id: { in: ids } } });
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.clientId === clientId && row.title === "Deploy finished" && row.category === "release" && row.severity === "warning")).toBe(
      true,
    );
  });

  it("uses sensible defaults for everything but --env and --client", async () => {
    const result = await admin("notification", "create", "--env", "sso-qa", "--client", clientId, "--json");
    const { ids } = JSON.parse(result.stdout) as { ids: string[] };
    expect(await database.db.notification.findUniqueOrThrow({ where: { id: ids[0] } })).toMatchObject({
      category: "system",
      severity: "info",
      status: "unread",
    });
  });

  it.each([
    [["--client", "gci_x"], "--env is required"],
    [["--env", "sso-qa"], "--client is required"],
    [["--env", "nowhere", "--client", "gci_x"], 'no environment "nowhere"'],
    [["--env", "platform-dev", "--client", "CLIENT"], "--client: no client"],
    [["--env", "sso-qa", "--client", "CLIENT", "--count", "0"], "--count must be an integer from 1 to 1000"],
    [["--env", "sso-qa", "--client", "CLIENT", "--severity", "loud"], "--severity:"],
    [["--env", "sso-qa", "--client", "CLIENT", "--title", ""], "--title:"],
    [["--env", "sso-qa", "--client", "CLIENT", "--colour", "red"], "unknown option --colour"],
  ])("exits non-zero with a one-line reason for %j", async (args, reason) => {
    const result = await admin("notification", "create", ...args.map((arg) => (arg === "CLIENT" ? clientId : arg)));
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(reason);
  });
});
