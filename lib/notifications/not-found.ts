import { ProblemError } from "../http/problem";

/** The same answer for an unknown id and for another client's or environment's one. */
export function notificationNotFound(id: string): ProblemError {
  return new ProblemError(404, "not-found", "Not Found", { detail: `There is no notification "${id}".` });
}

/** The shape of the ids this API issues; anything else cannot exist and is not sent to the database. */
const NOTIFICATION_ID = /^ntf_[A-Za-z0-9_-]{1,64}$/;

export function isNotificationId(id: string): boolean {
  return NOTIFICATION_ID.test(id);
}
