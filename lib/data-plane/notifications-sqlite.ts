import "server-only";
import type { NotificationStore, StoredNotification } from "./notifications";
import { changeStatusQuery, changesQuery, NOTIFICATION_COLUMNS, PAGE_VERSION_COLUMNS, pageQuery } from "./notifications-queries";
import type { SqliteConnection } from "./sqlite";
import { sqliteIsoTime as isoTime, sqliteTime } from "./time";

type N = StoredNotification;
type RawRow = [N["id"], N["title"], N["body"], N["category"], N["severity"], N["status"], N["link"], N["createdAt"], N["updatedAt"], N["readAt"], N["version"]];

/** Rows come as arrays (better-sqlite3's `raw`), which cost less than its objects, in `NOTIFICATION_COLUMNS`' order. */
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

/** The notification store on a SQLite connection; rows are read as arrays (`fromRaw`). */
export function createSqliteNotificationStore(connection: SqliteConnection): NotificationStore {
  const { all, get, run } = connection;
  const one = `SELECT ${NOTIFICATION_COLUMNS} FROM "Notification" WHERE "id" = ? AND "environmentId" = ? AND "clientId" = ?`;
  const changes = changesQuery(() => "?");
  const changeStatus = changeStatusQuery({
    status: "@status",
    statusText: "@status",
    at: "@at",
    id: "@id",
    environmentId: "@environmentId",
    clientId: "@clientId",
  });
  const update = `UPDATE "Notification" SET "status" = ?, "readAt" = ?, "updatedAt" = ?, "version" = "version" + 1 WHERE "id" = ? AND "environmentId" = ? AND "clientId" = ? AND "version" = ?`;
  const store: NotificationStore = {
    async findOne(owner, id) {
      const params = [id, owner.environmentId, owner.clientId];
      const row = await get<RawRow>(one, params, "arrays");
      return row && fromRaw(row);
    },
    async findPage(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, { columns: NOTIFICATION_COLUMNS, placeholder: () => "?", time: sqliteTime });
      return (await all<RawRow>(sql, params, "arrays")).map(fromRaw);
    },
    async findPageWithChanges(owner, filter) {
      const changes = await store.countChanges(owner);
      return { rows: await store.findPage(owner, filter), changes };
    },
    async findPageVersions(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, { columns: PAGE_VERSION_COLUMNS, placeholder: () => "?", time: sqliteTime });
      return all<[string, number]>(sql, params, "arrays");
    },
    async countChanges(owner) {
      return (await get<[number]>(changes, [owner.environmentId, owner.clientId], "arrays"))?.[0] ?? 0;
    },
    async setStatus(owner, id, version, change) {
      const params = [
        change.status,
        change.readAt && sqliteTime(change.readAt),
        sqliteTime(change.updatedAt),
        id,
        owner.environmentId,
        owner.clientId,
        version,
      ];
      return (await run(update, params)) === 1;
    },
    async changeStatus(owner, id, status, at) {
      const row = await get<RawRow>(changeStatus, [{ status, at: sqliteTime(at), id, environmentId: owner.environmentId, clientId: owner.clientId }], "arrays");
      return row && fromRaw(row);
    },
  };
  return store;
}
