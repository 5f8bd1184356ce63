import "server-only";
import Database from "better-sqlite3";
import { SQLITE_SYNCHRONOUS } from "../sqlite-pragmas";
import type { StoredNotification } from "./representation";
import { NOTIFICATION_COLUMNS, type NotificationStore, pageQuery, type QueryListener } from "./store";

type SqliteRow = Omit<StoredNotification, "createdAt" | "updatedAt" | "readAt"> & { createdAt: string; updatedAt: string; readAt: string | null };

/** Times in the text form Prisma's SQLite adapter stores and compares. */
function sqliteTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

function fromRow(row: SqliteRow): StoredNotification {
  return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt), readAt: row.readAt === null ? null : new Date(row.readAt) };
}

/** The notification store on a SQLite file, through its own better-sqlite3 connection. */
export function createSqliteNotificationStore(path: string, onQuery?: QueryListener): NotificationStore {
  const database = new Database(path, { timeout: 10_000 });
  database.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = database.prepare(sql)));
    return statement;
  };
  const run = (sql: string, params: unknown[]) => {
    onQuery?.(sql, params);
    return prepared(sql);
  };
  const one = `SELECT ${NOTIFICATION_COLUMNS} FROM "Notification" WHERE "id" = ? AND "environmentId" = ? AND "clientId" = ?`;
  const update = `UPDATE "Notification" SET "status" = ?, "readAt" = ?, "updatedAt" = ?, "version" = "version" + 1 WHERE "id" = ? AND "environmentId" = ? AND "clientId" = ? AND "version" = ?`;
  return {
    async findOne(owner, id) {
      const params = [id, owner.environmentId, owner.clientId];
      const row = run(one, params).get(...params) as SqliteRow | undefined;
      return row && fromRow(row);
    },
    async findPage(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, () => "?", sqliteTime);
      return (run(sql, params).all(...params) as SqliteRow[]).map(fromRow);
    },
    async setStatus(owner, id, version, change) {
      const params = [change.status, change.readAt && sqliteTime(change.readAt), sqliteTime(change.updatedAt), id, owner.environmentId, owner.clientId, version];
      return run(update, params).run(...params).changes === 1;
    },
    async close() {
      database.close();
    },
  };
}
