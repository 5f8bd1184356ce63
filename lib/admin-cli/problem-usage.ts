import { UsageError } from "./args";

/** A service's ProblemError as the one-line reason the admin CLI prints, naming the flag at fault. */
export async function asUsageError<T>(run: () => Promise<T>, flagOf: Record<string, string> = {}): Promise<T> {
  const { ProblemError } = await import("../http/problem");
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const reasons = error.errors?.map((problem) => `${flagOf[problem.field] ?? `--${problem.field}`}: ${problem.message}`);
    throw new UsageError(reasons?.join("; ") ?? error.detail ?? error.title);
  }
}
