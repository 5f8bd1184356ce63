import type { z } from "zod";
import { type FieldLocation, type FieldError, validationProblem, type ProblemError } from "../http/problem";

/**
 * Like `zodProblem`, but an unknown key becomes one error naming that key
 * (zod reports them together, on the parent object).
 */
export function fieldErrors(error: z.ZodError, location: FieldLocation): FieldError[] {
  return error.issues.flatMap((issue) => {
    const parent = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      const what = location === "query" ? "parameter" : "field";
      return issue.keys.map((key) => ({ in: location, field: [...parent, key].join("."), message: `is not a known ${what}` }));
    }
    return [{ in: location, field: parent.join("."), message: issue.message }];
  });
}

export function invalidInput(error: z.ZodError, location: FieldLocation): ProblemError {
  return validationProblem(fieldErrors(error, location));
}
