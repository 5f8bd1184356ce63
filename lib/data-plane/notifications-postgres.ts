import "server-only";
import type { NotificationStore, StoredNotification } from "./notifications";
import { changeStatusQuery, changesQuery, columnsWithChanges, NOTIFICATION_COLUMNS, PAGE_VERSION_COLUMNS, pageQuery } from "./notifications-queries";
import type { PostgresConnection } from "./postgres";
import { postgresTime } from "./time";

const placeholder = (index: number) => `$${index}`;
const changes = changesQuery(placeholder);
const pageWithChanges = columnsWithChanges(placeholder);
const changeStatus = changeStatusQuery({
  status: `$1::"NotificationStatus"`,
  statusText: "$1::text",
  at: "$2",
  id: "$3",
  environmentId: "$4",
  clientId: "$5",
});

/** The notification store on a PostgreSQL connection. */
export function createPostgresNotificationStore(connection: PostgresConnection): NotificationStore {
  const query = (sql: string, values: unknown[]) => connection.query<StoredNotification>(sql, values);
  return {
    async findOne(owner, id) {
      const { rows } = await query(`SELECT ${NOTIFICATION_COLUMNS} FROM "Notification" WHERE "id" = $1 AND "environmentId" = $2 AND "clientId" = $3`, [
        id,
        owner.environmentId,
        owner.clientId,
      ]);
      return rows[0];
    },
    async findPage(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, { columns: NOTIFICATION_COLUMNS, placeholder, time: postgresTime });
      return (await query(sql, params)).rows;
    },
    async findPageWithChanges(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, { columns: pageWithChanges, placeholder, time: postgresTime });
      const { rows } = await connection.query<StoredNotification & { changes: number }>(sql, params);
      return { rows: rows.map(({ changes: _, ...row }) => row), changes: rows[0]?.changes };
    },
    async findPageVersions(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, { columns: PAGE_VERSION_COLUMNS, placeholder, time: postgresTime });
      return (await connection.query<{ id: string; version: number }>(sql, params)).rows.map((row): [string, number] => [row.id, row.version]);
    },
    async countChanges(owner) {
      const { rows } = await connection.query<{ changes: number }>(changes, [owner.environmentId, owner.clientId]);
      return rows[0]?.changes ?? 0;
    },
    async setStatus(owner, id, version, change) {
      const { rowCount } = await query(
        `UPDATE "Notification" SET "status" = $1::"NotificationStatus", "readAt" = $2, "updatedAt" = $3, "version" = "version" + 1 WHERE "id" = $4 AND "environmentId" = $5 AND "clientId" = $6 AND "version" = $7`,
        [change.status, change.readAt && postgresTime(change.readAt), postgresTime(change.updatedAt), id, owner.environmentId, owner.clientId, version],
      );
      return rowCount === 1;
    },
    async changeStatus(owner, id, status, at) {
      const { rows } = await query(changeStatus, [status, postgresTime(at), id, owner.environmentId, owner.clientId]);
      return rows[0];
    },
  };
}
