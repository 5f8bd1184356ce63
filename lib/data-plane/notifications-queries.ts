import "server-only";
import type { Dialect } from "./dialect";
import type { NotificationFilter, NotificationOwner } from "./notifications";

/** The column type of a notification's status, for the dialects that cast parameters. */
const STATUS_TYPE = `"NotificationStatus"`;

/**
 * A column of the table, qualified, so that the page's filters and order name the
 * table's column and not a selected one of the same name, which no index serves
 * (decision 007, "Queries through the driver").
 */
function column(name: string): string {
  return `"Notification"."${name}"`;
}

/** The columns of a StoredNotification, in this order. */
export const NOTIFICATION_COLUMNS = `"id", "title", "body", "category", "severity", "status", "link", ${column("createdAt")} AS "createdAt", ${column("updatedAt")} AS "updatedAt", ${column("readAt")} AS "readAt", "version"`;

/** The statement of `countChanges`, taking the owner. */
export function changesQuery({ param }: Pick<Dialect, "param">): string {
  return `SELECT "changes" FROM "NotificationChanges" WHERE "environmentId" = ${param(1)} AND "clientId" = ${param(2)}`;
}

/**
 * `NOTIFICATION_COLUMNS` and the owner's count of changes as `"changes"` (0 before the first),
 * for a page statement, whose first two parameters are the owner's (`pageQuery`): the count
 * names them again, as only numbered parameters can, so it serves the dialects with round
 * trips (`Dialect.roundTrips`), which are PostgreSQL's.
 */
export function columnsWithChanges(dialect: Pick<Dialect, "param">): string {
  return `${NOTIFICATION_COLUMNS}, COALESCE((${changesQuery(dialect)}), 0) AS "changes"`;
}

/** The statement of `findOne`, taking the id and the owner. */
export function oneQuery({ param }: Pick<Dialect, "param">): string {
  return `SELECT ${NOTIFICATION_COLUMNS} FROM "Notification" WHERE "id" = ${param(1)} AND "environmentId" = ${param(2)} AND "clientId" = ${param(3)}`;
}

/** The statement of `setStatus`, taking the status, `readAt`, `updatedAt`, the id, the owner and the version the row must have. */
export function setStatusQuery({ param }: Pick<Dialect, "param">): string {
  return (
    `UPDATE "Notification" SET "status" = ${param(1, STATUS_TYPE)}, "readAt" = ${param(2)}, "updatedAt" = ${param(3)}, "version" = "version" + 1 ` +
    `WHERE "id" = ${param(4)} AND "environmentId" = ${param(5)} AND "clientId" = ${param(6)} AND "version" = ${param(7)}`
  );
}

/**
 * The statement of `changeStatus`, returning `NOTIFICATION_COLUMNS`. Its parameters, in order
 * (`changeStatusParams`): the status three times, the time twice, the row's id and owner, the
 * status again.
 */
export function changeStatusQuery({ param }: Pick<Dialect, "param">): string {
  const readAt = `CASE WHEN ${param(2, "text")} = 'unread' THEN NULL WHEN ${param(3, "text")} = 'read' THEN COALESCE("readAt", ${param(4)}) ELSE "readAt" END`;
  return (
    `UPDATE "Notification" SET "status" = ${param(1, STATUS_TYPE)}, "readAt" = ${readAt}, "updatedAt" = ${param(5)}, "version" = "version" + 1 ` +
    `WHERE "id" = ${param(6)} AND "environmentId" = ${param(7)} AND "clientId" = ${param(8)} AND "status" <> ${param(9, STATUS_TYPE)} RETURNING ${NOTIFICATION_COLUMNS}`
  );
}

export function changeStatusParams(owner: NotificationOwner, id: string, status: string, at: string): unknown[] {
  return [status, status, status, at, at, id, owner.environmentId, owner.clientId, status];
}

/** The columns `findPageVersions` reads, all in the page's index. */
export const PAGE_VERSION_COLUMNS = `"id", "version"`;

/**
 * A page's statement, in one dialect's placeholders: the owner, the filters, and
 * after a cursor a range on createdAt minus the cursor's own tie group up to its id
 * (`lib/notifications/list-notifications.ts` says why), newest first.
 */
export function pageQuery(owner: NotificationOwner, filter: NotificationFilter, columns: string, { param, time }: Pick<Dialect, "param" | "time">) {
  const params: unknown[] = [owner.environmentId, owner.clientId];
  const next = (value: unknown) => {
    params.push(value);
    return param(params.length);
  };
  const [createdAt, id] = [column("createdAt"), column("id")];
  const where = [`${column("environmentId")} = ${param(1)}`, `${column("clientId")} = ${param(2)}`];
  if (filter.status) where.push(`${column("status")} IN (${filter.status.map(next).join(", ")})`);
  if (filter.category) where.push(`${column("category")} = ${next(filter.category)}`);
  if (filter.severity) where.push(`${column("severity")} = ${next(filter.severity)}`);
  if (filter.since) where.push(`${createdAt} >= ${next(time(filter.since))}`);
  if (filter.cursor) {
    const at = time(filter.cursor.createdAt);
    where.push(`${createdAt} <= ${next(at)}`, `NOT (${createdAt} = ${next(at)} AND ${id} >= ${next(filter.cursor.id)})`);
  }
  const sql = `SELECT ${columns} FROM "Notification" WHERE ${where.join(" AND ")} ORDER BY ${createdAt} DESC, ${id} DESC LIMIT ${next(filter.limit)}`;
  return { sql, params };
}
