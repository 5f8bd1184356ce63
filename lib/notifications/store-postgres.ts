import "server-only";
import pg from "pg";
import type { StoredNotification } from "./representation";
import { type NotificationStore, notificationColumns, pageQuery, type QueryListener } from "./store";

const columns = notificationColumns((column) => column);

const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;

/**
 * Prisma stores DateTime as `timestamp(3)` in UTC, which PostgreSQL prints as
 * `2026-11-24 09:30:00.12` (trailing zeros of the fraction dropped): read back as
 * the API's ISO 8601 text by a string edit rather than by `Date`, or by `to_char`,
 * which moved the work onto the database server, often on the gateway's machine.
 */
function isoTime(printed: string): string {
  if (printed.length === 19) return `${printed.slice(0, 10)}T${printed.slice(11)}.000Z`;
  if (printed.length > 20 && printed.length <= 23 && printed[19] === ".") return `${printed.slice(0, 10)}T${printed.slice(11, 20)}${printed.slice(20).padEnd(3, "0")}Z`;
  return new Date(`${printed.replace(" ", "T")}Z`).toISOString();
}

function parseType(oid: number, format?: "text" | "binary") {
  return oid === TIMESTAMP_WITHOUT_TIME_ZONE ? isoTime : pg.types.getTypeParser(oid, format);
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
      const { rows } = await query(`SELECT ${columns} FROM "Notification" WHERE "id" = $1 AND "environmentId" = $2 AND "clientId" = $3`, [
        id,
        owner.environmentId,
        owner.clientId,
      ]);
      return rows[0];
    },
    async findPage(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, { columns, placeholder: (index) => `$${index}`, time: postgresTime });
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
