import "server-only";
import type { Cursor } from "./cursor";
import type { NotificationOwner } from "./owner";
import type { StoredNotification } from "./representation";

/** What a page of `GET /v1/notifications` asks for, already validated. */
export type NotificationFilter = {
  status?: readonly string[];
  category?: string;
  severity?: string;
  since?: Date;
  cursor?: Cursor;
  /** rows to read: the page size plus one, to tell whether there is a next page */
  limit: number;
};

export type StatusChange = { status: StoredNotification["status"]; readAt: Date | null; updatedAt: Date };

/**
 * The Notifications API's three queries, through the database driver with
 * statements prepared once (docs/decisions/007-gateway-notification-queries.md):
 * Prisma's client runtime and adapters cost more than the queries themselves.
 * Prisma keeps the schema, the migrations and every other query.
 */
export type NotificationStore = {
  findOne(owner: NotificationOwner, id: string): Promise<StoredNotification | undefined>;
  findPage(owner: NotificationOwner, filter: NotificationFilter): Promise<StoredNotification[]>;
  /** The id and version of each row `findPage` would read, from the index alone. */
  findPageVersions(owner: NotificationOwner, filter: NotificationFilter): Promise<[id: string, version: number][]>;
  /**
   * How many times the owner's notifications have been inserted, changed or deleted
   * (`NotificationChanges`, kept by triggers in the same transaction as the change); 0 before the first.
   */
  countChanges(owner: NotificationOwner): Promise<number>;
  /** Applies `change` when the row still has `version`, bumping it; false when it had changed meanwhile. */
  setStatus(owner: NotificationOwner, id: string, version: number, change: StatusChange): Promise<boolean>;
  /**
   * Sets `status` unless it is the stored one, bumping the version, with `readAt` set
   * to `at` on the first read, cleared on unread, and kept on archive: one statement,
   * the row as updated, or undefined when there is no such row or its status is `status`.
   */
  changeStatus(owner: NotificationOwner, id: string, status: StoredNotification["status"], at: Date): Promise<StoredNotification | undefined>;
};

/** The statement of `countChanges`, in one dialect's placeholders. */
export function changesQuery(placeholder: (index: number) => string): string {
  return `SELECT "changes" FROM "NotificationChanges" WHERE "environmentId" = ${placeholder(1)} AND "clientId" = ${placeholder(2)}`;
}

/**
 * The statement of `changeStatus`, in one dialect's placeholders, taking the status
 * (`status`, once cast for the column's type and once for comparisons), the time and
 * the row's id and owner, and returning `columns`.
 */
export function changeStatusQuery(dialect: { columns: string; status: string; statusText: string; at: string; id: string; environmentId: string; clientId: string }): string {
  const { columns, status, statusText, at } = dialect;
  const readAt = `CASE WHEN ${statusText} = 'unread' THEN NULL WHEN ${statusText} = 'read' THEN COALESCE("readAt", ${at}) ELSE "readAt" END`;
  return (
    `UPDATE "Notification" SET "status" = ${status}, "readAt" = ${readAt}, "updatedAt" = ${at}, "version" = "version" + 1 ` +
    `WHERE "id" = ${dialect.id} AND "environmentId" = ${dialect.environmentId} AND "clientId" = ${dialect.clientId} AND "status" <> ${status} RETURNING ${columns}`
  );
}

/** The columns `findPageVersions` reads, all in the page's index. */
export const PAGE_VERSION_COLUMNS = `"id", "version"`;

/** The columns of a StoredNotification, in this order, with times formatted by the dialect's `isoTime`. */
export function notificationColumns(isoTime: (column: string) => string): string {
  return `"id", "title", "body", "category", "severity", "status", "link", ${isoTime(column("createdAt"))} AS "createdAt", ${isoTime(column("updatedAt"))} AS "updatedAt", ${isoTime(column("readAt"))} AS "readAt", "version"`;
}

/**
 * A column of the table, qualified: the formatted times are selected under the
 * columns' own names, and an unqualified `ORDER BY "createdAt"` would sort by the
 * formatted text, which no index serves.
 */
function column(name: string): string {
  return `"Notification"."${name}"`;
}

/**
 * The WHERE clause of a page, in one dialect's placeholders: the owner, the filters,
 * and after a cursor a range on createdAt minus the cursor's own tie group up to its
 * id (`lib/notifications/list-notifications.ts` says why), newest first.
 */
export function pageQuery(owner: NotificationOwner, filter: NotificationFilter, dialect: { columns: string; placeholder: (index: number) => string; time: (date: Date) => unknown }) {
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
