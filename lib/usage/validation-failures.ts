import "server-only";
import type { Db } from "../db";
import type { UsageScope } from "./usage-report";

/** One failure of a call checked under request validation `report`, as the gateway stored it. */
export type ValidationFailureError = { in: string; pointer?: string; name?: string; message: string };

/** A call that failed request validation and was forwarded: which call, and why it failed. */
export type ValidationFailure = {
  requestId: string;
  at: Date;
  environment: string;
  api: string;
  method: string;
  route: string;
  status: number;
  clientId: string | null;
  errors: ValidationFailureError[];
};

/** The most recent failing calls listed; their count over the range is in the metric and the request log. */
const MAX_LISTED = 20;

/** The stored JSON of `validationErrors`, or one error saying it could not be read (a column edited by hand). */
export function parseValidationErrors(text: string): ValidationFailureError[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed))
      return parsed.filter((error): error is ValidationFailureError => typeof error?.message === "string" && typeof error?.in === "string");
  } catch {}
  return [{ in: "body", message: "the stored errors could not be read" }];
}

/**
 * The latest calls in the scope since `since` that request validation `report` forwarded
 * though they failed, newest first. Rolled-up hours keep no errors, so only raw rows are found.
 */
export async function recentValidationFailures(db: Db, scope: UsageScope, since: Date): Promise<ValidationFailure[]> {
  if (scope.clients !== "all" && scope.clients.length === 0) return [];
  const rows = await db.requestLog.findMany({
    where: {
      at: { gte: since },
      validationErrors: { not: null },
      ...(scope.environment ? { environment: scope.environment } : {}),
      ...(scope.api ? { api: scope.api } : {}),
      ...(scope.clients === "all" ? {} : { clientId: { in: scope.clients } }),
    },
    select: { requestId: true, at: true, environment: true, api: true, method: true, route: true, status: true, clientId: true, validationErrors: true },
    orderBy: { at: "desc" },
    take: MAX_LISTED,
  });
  return rows.map(({ validationErrors, ...row }) => ({ ...row, errors: parseValidationErrors(validationErrors ?? "[]") }));
}
