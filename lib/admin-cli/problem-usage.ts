import { UsageError } from "./args";

/** The flag behind a field, and where inside its value the fault is (`--jwks-file keys.0.kty`). */
function flagFor(field: string, flagOf: Record<string, string>): string {
  const [head = "", ...rest] = field.split(".");
  const flag = flagOf[field] ?? flagOf[head];
  if (!flag) return `--${field}`;
  return flagOf[field] || rest.length === 0 ? flag : `${flag} ${rest.join(".")}`;
}

/** A service's ProblemError as the one-line reason the admin CLI prints, naming the flag at fault. */
export async function asUsageError<T>(run: () => Promise<T>, flagOf: Record<string, string> = {}): Promise<T> {
  const { ProblemError } = await import("../http/problem");
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const reasons = error.errors?.map((problem) => `${flagFor(problem.field, flagOf)}: ${problem.message}`);
    throw new UsageError(reasons?.join("; ") ?? error.detail ?? error.title);
  }
}
