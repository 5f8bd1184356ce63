import "server-only";
import type { NotificationOwner, NotificationStore, StoredNotification } from "../data-plane/notifications";
import { problem, type FieldError, type ProblemError, validationProblem } from "../http/problem";
import { ifMatchSatisfied, notificationEtag } from "./etag";
import { isNotificationId, notificationNotFound } from "./not-found";
import { ownerWhere } from "./owner";
import { READ_ONLY_FIELDS, type UpdateNotificationBody } from "./schemas";

type UpdateNotificationArgs = NotificationOwner & {
  store: NotificationStore;
  id: string;
  input: UpdateNotificationBody;
  /** the request's `If-Match` header, when it has one */
  ifMatch?: string;
};

/** Without If-Match a lost race is retried; a notification does not change often enough to exhaust this. */
const MAX_ATTEMPTS = 5;

function preconditionFailed(id: string): ProblemError {
  return problem("precondition-failed", {
    detail: `Notification "${id}" has changed since the version named in If-Match; fetch it again.`,
  });
}

function sameValue(sent: string | null, stored: string | null, isTime: boolean): boolean {
  if (sent === null || stored === null) return sent === stored;
  return isTime ? Date.parse(sent) === Date.parse(stored) : sent === stored;
}

function readOnlyMismatches(input: UpdateNotificationBody, stored: StoredNotification): FieldError[] {
  return READ_ONLY_FIELDS.flatMap((field) => {
    const sent = input[field];
    if (sent === undefined) return [];
    const isTime = field === "createdAt" || field === "updatedAt" || field === "readAt";
    return sameValue(sent, stored[field], isTime) ? [] : [{ in: "body" as const, field, message: "is read-only and must equal the stored value" }];
  });
}

/**
 * Sets the client-writable status. A request with neither If-Match nor read-only
 * fields to check is one statement that changes the status unless it is already the
 * one asked for (one round trip, where reading first cost two); the rest read the
 * row, check it, and write conditioned on the version they read, so of two
 * concurrent updates carrying the same If-Match exactly one succeeds and the other
 * gets 412.
 */
export async function updateNotification({ store, id, input, ifMatch, ...owner }: UpdateNotificationArgs): Promise<StoredNotification> {
  const where = ownerWhere(owner);
  if (!isNotificationId(id)) throw notificationNotFound(id);
  const unconditional = ifMatch === undefined && READ_ONLY_FIELDS.every((field) => input[field] === undefined);
  for (let attempt = 1; ; attempt++) {
    if (unconditional) {
      const changed = await store.changeStatus(where, id, input.status, new Date());
      if (changed) return changed;
    }
    const current = await store.findOne(where, id);
    if (!current) throw notificationNotFound(id);
    if (ifMatch !== undefined && !ifMatchSatisfied(ifMatch, notificationEtag(current.version))) throw preconditionFailed(id);
    const mismatches = readOnlyMismatches(input, current);
    if (mismatches.length > 0) throw validationProblem(mismatches);
    if (input.status === current.status) return current;

    if (!unconditional) {
      const now = new Date();
      const readAt = input.status === "unread" ? null : input.status === "read" ? (current.readAt ?? now.toISOString()) : current.readAt;
      if (await store.setStatus(where, id, current.version, { status: input.status, readAt: readAt === null ? null : new Date(readAt), updatedAt: now })) {
        return { ...current, status: input.status, readAt, updatedAt: now.toISOString(), version: current.version + 1 };
      }
    }
    if (ifMatch !== undefined) throw preconditionFailed(id);
    if (attempt >= MAX_ATTEMPTS) {
      throw problem("conflict", { detail: `Notification "${id}" kept changing during the update; try again.` });
    }
  }
}
