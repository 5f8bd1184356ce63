import type { SeedReport } from "../prisma/seed-report";
import { startThread } from "../lib/runtime/threads";
import { StartupError } from "./start-up";

type Outcome = { report: SeedReport } | { failure: string };

/** `prepareDatabase` in a thread that ends when it is done, keeping what it loads out of this one. */
export async function prepareDatabaseApart(): Promise<SeedReport> {
  const worker = startThread("server/prepare-database-worker.ts");
  try {
    const outcome = await new Promise<Outcome>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the start-up thread ended with code ${code}`)));
    });
    if ("failure" in outcome) throw new StartupError(outcome.failure);
    return outcome.report;
  } finally {
    await worker.terminate();
  }
}
