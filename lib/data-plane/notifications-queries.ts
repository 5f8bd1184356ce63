import "server-only";
import type { NotificationFilter, NotificationOwner } from "./notifications";

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

/** The statement of `countChanges`, in one dialect's placeholders. */
export function changesQuery(placeholder: (index: number) => string): string {
  return `SELECT "changes" FROM "NotificationChanges" WHERE "environmentId" = ${placeholder(1)} AND "clientId" = ${placeholder(2)}`;
}

/**
 * `NOTIFICATION_COLUMNS` and the owner's count of changes as `"changes"` (0 before the first),
 * for a page statement, whose first two parameters are the owner's (`pageQuery`).
 */
export function columnsWithChanges(placeholder: (index: number) => string): string {
  return `${NOTIFICATION_COLUMNS}, COALESCE((${changesQuery(placeholder)}), 0) AS "changes"`;
}

/**
 * The statement of `changeStatus`, in one dialect's placeholders, taking the status
 * (`status`, once cast for the column's type and once for comparisons), the time and
 * the row's id and owner, and returning `NOTIFICATION_COLUMNS`.
 */
export function changeStatusQuery(dialect: { status: string; statusText: string; at: string; id: string; environmentId: string; clientId: string }): string {
  const { status, statusText, at } = dialect;
  const readAt = `CASE WHEN ${statusText} = 'unread' THEN NULL WHEN ${statusText} = 'read' THEN COALESCE("readAt", ${at}) ELSE "readAt" END`;
  return (
    `UPDATE "Notification" SET "status" = ${status}, "readAt" = ${readAt}, "updatedAt" = ${at}, "version" = "version" + 1 ` +
    `WHERE "id" = ${dialect.id} AND "environmentId" = ${dialect.environmentId} AND "clientId" = ${dialect.clientId} AND "status" <> ${status} RETURNING ${NOTIFICATION_COLUMNS}`
  );
}

/** The columns `findPageVersions` reads, all in the page's index. */
export const PAGE_VERSION_COLUMNS = `"id", "version"`;

/**
 * A page's statement, in one dialect's placeholders: the owner, the filters, and
 * after a cursor a range on createdAt minus the cursor's own tie group up to its id
 * (`lib/notifications/list-notifications.ts` says why), newest first.
 */
export function pageQuery(
  owner: NotificationOwner,
  filter: NotificationFilter,
  dialect: { columns: string; placeholder: (index: number) => string; time: (date: Date) => unknown },
) {
  const { columns, placeholder, time } = dialect;
  const params: unknown[] = [owner.environmentId, owner.clientId];
  const next = (value: unknown) => {
    params.push(value);
    return placeholder(params.length);
  };
  const [createdAt, id] = [column("createdAt"), column("id")];
  const where = [`${column("environmentId")} = ${placeholder(1)}`, `${column("clientId")} = ${placeholder(2)}`];
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
