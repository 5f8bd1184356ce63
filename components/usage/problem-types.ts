import { PROBLEM_TYPES } from "@/lib/catalog/problem-advice";

/** The request log keeps the status, not the problem type: these are the types a status can stand for. */
export function problemTypesOf(status: number) {
  return status >= 400 ? PROBLEM_TYPES.filter((problem) => problem.status === status) : [];
}
