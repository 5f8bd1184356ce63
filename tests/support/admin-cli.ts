import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ADMIN_NODE_ARGS } from "../../server/server-command";
import { inheritedEnv } from "./child-env";

const ROOT = join(import.meta.dirname, "..", "..");
const run = promisify(execFile);

export type AdminRun = { code: number; stdout: string; stderr: string };

/** `node <nodeArgs>` in the project's folder against `databaseUrl`, as a test's command-line run. */
async function runNode(databaseUrl: string, nodeArgs: readonly string[]): Promise<AdminRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, nodeArgs, {
      cwd: ROOT,
      env: { ...inheritedEnv(), NODE_ENV: "test", APP_ENV: "test", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
      // A command's whole output, however long, as a CI log would take it through its pipe.
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** One of the project's TypeScript entry points, as its npm script runs it, against `databaseUrl`. */
export function runScript(databaseUrl: string, script: string, ...args: string[]): Promise<AdminRun> {
  return runNode(databaseUrl, ["--import", "tsx", "--import", "./lib/runtime/server-only-hook.mjs", script, ...args]);
}

/**
 * `npm run --silent admin -- ...`, as an operator runs it, against `databaseUrl`: the compiled
 * CLI, which Vitest's global setup has brought up to date with its source.
 */
export function runAdmin(databaseUrl: string, ...args: string[]): Promise<AdminRun> {
  return runNode(databaseUrl, [...ADMIN_NODE_ARGS, ...args]);
}
