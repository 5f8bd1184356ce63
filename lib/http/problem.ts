import type { z } from "zod";
import { config } from "../config";
import { type PlainResponse, toFetchResponse } from "./message";
import { type FieldError, type FieldLocation, type ProblemOptions, ProblemError } from "./problem-error";
import type { ProblemCode } from "./problem-types";

export { type FieldError, type FieldLocation, ProblemError } from "./problem-error";

export function problem(code: ProblemCode, options?: ProblemOptions): ProblemError {
  return new ProblemError(code, options);
}

export function problemTypeUri(code: string): string {
  return `${config().publicUrl}/problems/${code}`;
}

export function validationProblem(errors: FieldError[], detail?: string): ProblemError {
  const summary = errors.map((error) => `${error.in} ${error.field || "(whole)"}: ${error.message}`).join("; ");
  return problem("validation-failed", { detail: detail ?? summary, errors });
}

/**
 * Each zod issue as a field error. Unknown keys, which zod reports together on
 * the parent object, become one error per key so that each is named.
 */
export function zodFieldErrors(error: z.ZodError, location: FieldLocation): FieldError[] {
  return error.issues.flatMap((issue) => {
    const parent = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      const what = location === "query" ? "parameter" : "field";
      return issue.keys.map((key) => ({ in: location, field: [...parent, key].join("."), message: `is not a known ${what}` }));
    }
    return [{ in: location, field: parent.join("."), message: keyMessage(issue) }];
  });
}

/** An issue's message; for a record's key, what the key's own schema says of it rather than zod's "Invalid key in record". */
export function keyMessage(issue: z.core.$ZodIssue): string {
  return issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message;
}

/** A zod failure as a 400 problem naming each failing field. */
export function zodProblem(error: z.ZodError, location: FieldLocation): ProblemError {
  return validationProblem(zodFieldErrors(error, location));
}

/** A request body parsed by `schema`; a missing body is an empty object, a failure a 400 naming each field. */
export function parseBody<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  return parsed.data;
}

/**
 * `instance` is the request's path; a request the parser refused has none. `traceId`,
 * the W3C trace id, is the gateway's: answers elsewhere belong to no trace it knows.
 */
export type ProblemContext = { instance?: string; requestId: string; traceId?: string };

export function problemBody(problem: ProblemError, context: ProblemContext): Record<string, unknown> {
  return {
    type: problemTypeUri(problem.code),
    title: problem.title,
    status: problem.status,
    ...(problem.detail === undefined ? {} : { detail: problem.detail }),
    ...(context.instance === undefined ? {} : { instance: context.instance }),
    requestId: context.requestId,
    ...(context.traceId === undefined ? {} : { traceId: context.traceId }),
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...problem.extensions,
  };
}

/** RFC 9457 `application/problem+json`. */
export function problemPlainResponse(problem: ProblemError, context: ProblemContext): PlainResponse {
  return {
    status: problem.status,
    headers: Object.assign({}, problem.headers, { "content-type": "application/problem+json", "x-request-id": context.requestId, "cache-control": "no-store" }),
    body: JSON.stringify(problemBody(problem, context)),
  };
}

export function problemResponse(problem: ProblemError, context: ProblemContext): Response {
  return toFetchResponse(problemPlainResponse(problem, context));
}

/** Anything not a ProblemError becomes a bare 500; the caller logs the cause, the client never sees it. */
export function toProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  // PostgreSQL refuses NUL characters in text; only a client's input can carry one there.
  if (error instanceof Error && error.message.includes("invalid byte sequence for encoding")) {
    return problem("validation-failed", { detail: "Text values may not contain NUL characters." });
  }
  return problem("internal-error", {
    detail: "The server failed to answer this request. Quote the request id when you report it.",
  });
}
