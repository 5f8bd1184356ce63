import { problem, type ProblemError } from "../http/problem";
import { notificationIdSchema } from "./schemas";

/** The same answer for an unknown id and for another client's or environment's one. */
export function notificationNotFound(id: string): ProblemError {
  return problem("not-found", { detail: `There is no notification "${id}".` });
}

export function isNotificationId(id: string): boolean {
  return notificationIdSchema.safeParse(id).success;
}
