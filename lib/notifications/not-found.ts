import { ProblemError } from "../http/problem";
import { notificationIdSchema } from "./schemas";

/** The same answer for an unknown id and for another client's or environment's one. */
export function notificationNotFound(id: string): ProblemError {
  return new ProblemError(404, "not-found", "Not Found", { detail: `There is no notification "${id}".` });
}

export function isNotificationId(id: string): boolean {
  return notificationIdSchema.safeParse(id).success;
}
