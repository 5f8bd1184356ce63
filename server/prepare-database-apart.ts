import { fork } from "node:child_process";
import { compiledModule } from "../lib/runtime/threads";
import type { SeedReport } from "../prisma/seed-report";
import { withPrismaV8Args } from "./server-command";
import { StartupError } from "./start-up";

type Outcome = { report: SeedReport } | { failure: string };

/**
 * The gateway's start-up steps (Redis answers, then `prepareDatabase`) in a process that
 * ends when it is done, keeping what it loads out of this one. It runs with this process's
 * Node options (the better-sqlite3 preload among them), environment and output, and with
 * Prisma's V8 flags, which the gateway-only process itself runs without.
 */
export async function prepareDatabaseApart(): Promise<SeedReport> {
  const child = fork(compiledModule("server/prepare-database-process.ts"), [], { serialization: "advanced", execArgv: withPrismaV8Args(process.execArgv) });
  try {
    const outcome = await new Promise<Outcome>((resolve, reject) => {
      child.once("message", (message) => resolve(message as Outcome));
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`the start-up process ended with code ${code}`)));
    });
    if ("failure" in outcome) throw new StartupError(outcome.failure);
    return outcome.report;
  } finally {
    if (child.exitCode === null) child.kill();
  }
}
