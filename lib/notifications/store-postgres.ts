import "server-only";
import pg from "pg";
import type { StoredNotification } from "./representation";
import { NOTIFICATION_COLUMNS, type NotificationStore, pageQuery, type QueryListener } from "./store";

const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;

/** Prisma stores DateTime as `timestamp(3)` in UTC; pg would read it in the process's time zone. */
function parseType(oid: number, format?: "text" | "binary") {
  if (oid === TIMESTAMP_WITHOUT_TIME_ZONE) return (value: string) => new Date(`${value.replace(" ", "T")}Z`);
  return pg.types.getTypeParser(oid, format);
}

function postgresTime(date: Date): string {
  return date.toISOString().replace("Z", "");
}

/**
 * The notification store on PostgreSQL: a pool of pg's default size (10, as
 * Prisma's adapter has), with each statement prepared once per connection (named).
 */
export function createPostgresNotificationStore(connectionString: string, onQuery?: QueryListener): NotificationStore {
  const pool = new pg.Pool({ connectionString, types: { getTypeParser: parseType as typeof pg.types.getTypeParser } });
  const names = new Map<string, string>();
  const query = async (sql: string, values: unknown[]) => {
    onQuery?.(sql, values);
    let name = names.get(sql);
    if (!name) names.set(sql, (name = `notifications_${names.size}`));
    return pool.query<StoredNotification>({ name, text: sql, values });
  };
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
      const { sql, params } = pageQuery(owner, filter, (index) => `$${index}`, postgresTime);
      return (await query(sql, params)).rows;
    },
    async setStatus(owner, id, version, change) {
      const { rowCount } = await query(
        `UPDATE "Notification" SET "status" = $1::"NotificationStatus", "readAt" = $2, "updatedAt" = $3, "version" = "version" + 1 WHERE "id" = $4 AND "environmentId" = $5 AND "clientId" = $6 AND "version" = $7`,
        [change.status, change.readAt && postgresTime(change.readAt), postgresTime(change.updatedAt), id, owner.environmentId, owner.clientId, version],
      );
      return rowCount === 1;
    },
    async close() {
      await pool.end();
    },
  };
}
