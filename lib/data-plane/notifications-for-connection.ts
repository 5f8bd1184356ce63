import "server-only";
import type { DriverConnection } from "./connection";
import { dialectOf } from "./dialect-for-connection";
import type { NotificationStore, StoredNotification } from "./notifications";
import {
  changeStatusParams,
  changeStatusQuery,
  changesQuery,
  columnsWithChanges,
  NOTIFICATION_COLUMNS,
  oneQuery,
  PAGE_VERSION_COLUMNS,
  pageQuery,
  setStatusQuery,
} from "./notifications-queries";

type N = StoredNotification;
/** A row in `NOTIFICATION_COLUMNS`' order, then the owner's count of changes where the statement reads it. */
type RawRow = [
  N["id"],
  N["title"],
  N["body"],
  N["category"],
  N["severity"],
  N["status"],
  N["link"],
  string,
  string,
  string | null,
  N["version"],
  changes?: number,
];

/** The notification store on the connection's dialect. Rows are read as arrays, which cost less than objects. */
export function createNotificationStore(connection: DriverConnection): NotificationStore {
  const dialect = dialectOf(connection);
  const { all, get, run, time, isoTime } = dialect;
  const one = oneQuery(dialect);
  const changes = changesQuery(dialect);
  const pageWithChanges = columnsWithChanges(dialect);
  const setStatus = setStatusQuery(dialect);
  const changeStatus = changeStatusQuery(dialect);

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

  const store: NotificationStore = {
    async findOne(owner, id) {
      const row = await get<RawRow>(one, [id, owner.environmentId, owner.clientId], "arrays");
      return row && fromRaw(row);
    },
    async findPage(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, NOTIFICATION_COLUMNS, dialect);
      return (await all<RawRow>(sql, params, "arrays")).map(fromRaw);
    },
    async findPageWithChanges(owner, filter) {
      if (!dialect.roundTrips) {
        const count = await store.countChanges(owner);
        return { rows: await store.findPage(owner, filter), changes: count };
      }
      const { sql, params } = pageQuery(owner, filter, pageWithChanges, dialect);
      const rows = await all<RawRow>(sql, params, "arrays");
      return { rows: rows.map(fromRaw), changes: rows[0]?.[11] };
    },
    async findPageVersions(owner, filter) {
      const { sql, params } = pageQuery(owner, filter, PAGE_VERSION_COLUMNS, dialect);
      return all<[string, number]>(sql, params, "arrays");
    },
    async countChanges(owner) {
      return (await get<[number]>(changes, [owner.environmentId, owner.clientId], "arrays"))?.[0] ?? 0;
    },
    async setStatus(owner, id, version, change) {
      const params = [change.status, change.readAt && time(change.readAt), time(change.updatedAt), id, owner.environmentId, owner.clientId, version];
      return (await run(setStatus, params)) === 1;
    },
    async changeStatus(owner, id, status, at) {
      const row = await get<RawRow>(changeStatus, changeStatusParams(owner, id, status, time(at)), "arrays");
      return row && fromRaw(row);
    },
  };
  return store;
}
