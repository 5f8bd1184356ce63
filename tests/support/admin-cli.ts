import { execFile } from "node:child_process";
import { join } from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { runAdmin as runAdminCommand } from "../../lib/admin-cli/run";
import { ADMIN_NODE_ARGS } from "../../server/server-command";
import { inheritedEnv } from "./child-env";

const ROOT = join(import.meta.dirname, "..", "..");
const run = promisify(execFile);

export type AdminRun = { code: number; stdout: string; stderr: string };

/** The environment of a test's command-line run against `databaseUrl`. */
function commandEnv(databaseUrl: string) {
  return { ...inheritedEnv(), NODE_ENV: "test" as const, APP_ENV: "test", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" };
}

/** `node <nodeArgs>` in the project's folder against `databaseUrl`, as a test's command-line run. */
async function runNode(databaseUrl: string, nodeArgs: readonly string[]): Promise<AdminRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, nodeArgs, {
      cwd: ROOT,
      env: commandEnv(databaseUrl),
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
 * CLI in a process of its own, which Vitest's global setup has brought up to date with its
 * source. For what only the real process shows: its exit status, its output through a pipe,
 * its reading of `.env`, commands racing from separate processes.
 */
export function runAdminProcess(databaseUrl: string, ...args: string[]): Promise<AdminRun> {
  return runNode(databaseUrl, [...ADMIN_NODE_ARGS, ...args]);
}

/** A stream that keeps what is written to it. */
function kept(): { stream: Writable; text(): string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * The last command run in this process: each waits for the one before. better-sqlite3 waits
 * for SQLite's write lock without giving up the thread, so a second command waiting there for
 * the first's lock would stop the first from ever releasing it; commands racing from separate
 * processes are `runAdminProcess`'s.
 */
let inTurn: Promise<unknown> = Promise.resolve();

/**
 * One admin command against `databaseUrl`, run in the test's process by the function the
 * compiled CLI runs (`lib/admin-cli/run.ts`), with the environment and output a process of its
 * own would have: its own configuration and database client, its exit code and what it wrote.
 */
export function runAdmin(databaseUrl: string, ...args: string[]): Promise<AdminRun> {
  const ran = inTurn.then(async () => {
    const stdout = kept();
    const stderr = kept();
    const code = await runAdminCommand(args, { env: commandEnv(databaseUrl), stdout: stdout.stream, stderr: stderr.stream });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  });
  inTurn = ran.catch(() => undefined);
  return ran;
}
