import "server-only";
import Database from "better-sqlite3";
import { SQLITE_SYNCHRONOUS } from "../sqlite-pragmas";
import type { StoredNotification } from "./representation";
import { type NotificationStore, notificationColumns, pageQuery, type QueryListener } from "./store";

/** Times in the text form Prisma's SQLite adapter stores and compares. */
function sqliteTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

const columns = notificationColumns((column) => column);

/**
 * The stored text form as the API's ISO 8601 in UTC. Prisma's adapter and this
 * store write `2026-11-24T09:30:00.000+00:00`, which needs only its zone
 * replaced; anything else a tool may have written goes through Date. In SQL,
 * strftime cost a third of a page's read.
 */
function isoTime(stored: string): string {
  return stored.length === 29 && stored.endsWith("+00:00") ? `${stored.slice(0, 23)}Z` : new Date(stored).toISOString();
}

type N = StoredNotification;
type RawRow = [N["id"], N["title"], N["body"], N["category"], N["severity"], N["status"], N["link"], N["createdAt"], N["updatedAt"], N["readAt"], N["version"]];

/** Rows come as arrays (better-sqlite3's `raw`), which cost less than its objects, in `columns`' order. */
function fromRaw(row: RawRow): StoredNotification {
  const readAt = row[9];
  return {
    id: row[0],
    title: row[1],
    body: row[2],
    category: row[3],
    severity: row[4],
    status: row[5],
    link: row[6],
    createdAt: isoTime(row[7]),
    updatedAt: isoTime(row[8]),
    readAt: readAt === null ? null : isoTime(readAt),
    version: row[10],
  };
}

const BUSY_DEADLINE_MS = 10_000;

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith("SQLITE_BUSY");
}

/**
 * Runs `statement` now, and while another connection holds the write lock (the
 * request-log worker commits a batch, another process writes) tries again after
 * a pause that grows to 8 ms. SQLite's own busy handler would sleep on the event
 * loop instead, stalling every request in flight for as long as the lock is held.
 */
async function whenNotBusy<T>(statement: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_DEADLINE_MS;
  for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 8)) {
    try {
      return statement();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/**
 * The notification store on a SQLite file, through its own better-sqlite3
 * connection. It never checkpoints the write-ahead log itself (the request-log
 * worker's connection, which writes as often, does so off the event loop).
 */
export function createSqliteNotificationStore(path: string, onQuery?: QueryListener): NotificationStore {
  const database = new Database(path, { timeout: 0 });
  database.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  database.pragma("wal_autocheckpoint = 0");
  const statements = new Map<string, Database.Statement>();
  /** Each statement prepared once; the ones that read rows read them as arrays (`fromRaw`). */
  const prepared = (sql: string, params: unknown[]) => {
    onQuery?.(sql, params);
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      if (statement.reader) statement.raw(true);
      statements.set(sql, statement);
    }
    return statement;
  };
  const one = `SELECT ${columns} FROM "Notification" WHERE "id" = ? AND "environmentId" = ? AND "clientId" = ?`;
  const update = `UPDATE "Notification" SET "status" = ?, "readAt" = ?, "updatedAt" = ?, "version" = "version" + 1 WHERE "id" = ? AND "environmentId" = ? AND "clientId" = ? AND "version" = ?`;
  return {
    async findOne(owner, id) {
      const params = [id, owner.environmentId, owner.clientId];
      const row = await whenNotBusy(() => prepared(one, params).get(...params) as RawRow | undefined);
      return row && fromRaw(row);
    },
    async findPage(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, { columns, placeholder: () => "?", time: sqliteTime });
      return (await whenNotBusy(() => prepared(sql, params).all(...params) as RawRow[])).map(fromRaw);
    },
    async setStatus(owner, id, version, change) {
      const params = [change.status, change.readAt && sqliteTime(change.readAt), sqliteTime(change.updatedAt), id, owner.environmentId, owner.clientId, version];
      return (await whenNotBusy(() => prepared(update, params).run(...params))).changes === 1;
    },
    async close() {
      database.close();
    },
  };
}
