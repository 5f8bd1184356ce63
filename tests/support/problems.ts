import { ProblemError } from "../../lib/http/problem";

/** The ProblemError that `run` throws; fails the test when it throws nothing or something else. */
export function problemOf(run: () => unknown): ProblemError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProblemError) return error;
  }
  throw new Error("expected a ProblemError");
}
