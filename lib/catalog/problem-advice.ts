import { isProblemCode, OAUTH_ERROR_ADVICE, PROBLEMS, type ProblemType } from "../http/problem-types";

/**
 * The registry's problem types as the `/problems/{code}` pages, the usage
 * charts and the Reference tab (next to a failed try-it call) read them.
 */
export type ProblemAdvice = ProblemType & { code: string };

export const PROBLEM_TYPES: readonly ProblemAdvice[] = Object.entries(PROBLEMS).map(([code, type]) => ({ code, ...type }));

export function problemAdvice(code: string): ProblemAdvice | undefined {
  return isProblemCode(code) ? { code, ...PROBLEMS[code] } : undefined;
}

/** The code at the end of a problem `type` URI such as `https://portal.example/problems/token-expired`. */
export function problemCodeFromType(type: string): string | undefined {
  return /\/problems\/([a-z0-9-]+)\/?$/.exec(type)?.[1];
}

/**
 * Advice for a failed response body: a gateway problem document (by its `type`)
 * or an OAuth error (by its `error`); undefined when it is neither.
 */
export function adviceForResponseBody(body: unknown): ProblemAdvice | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { type, error } = body as { type?: unknown; error?: unknown };
  if (typeof type === "string") {
    const code = problemCodeFromType(type);
    return code ? problemAdvice(code) : undefined;
  }
  if (typeof error === "string" && Object.hasOwn(OAUTH_ERROR_ADVICE, error)) {
    return { code: error, ...OAUTH_ERROR_ADVICE[error as keyof typeof OAUTH_ERROR_ADVICE] };
  }
  return undefined;
}
