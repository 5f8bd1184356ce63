import "server-only";
import type { Dialect } from "./dialect";
import type { SqliteConnection } from "./sqlite";
import { sqliteIsoTime, sqliteTime } from "./time";

/** SQLite's part of the stores: `?` parameters, lists as JSON, times as Prisma's adapter stores them, flags as 0 and 1. */
export function sqliteDialect(connection: SqliteConnection): Dialect {
  const { statement } = connection;
  return {
    roundTrips: false,
    param: () => "?",
    inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
    text: (column) => column,
    list: (values) => JSON.stringify(values),
    time: sqliteTime,
    isoTime: sqliteIsoTime,
    json: (stored) => (typeof stored === "string" ? JSON.parse(stored) : stored),
    flag: (stored) => stored === 1,
    all: connection.all,
    get: connection.get,
    run: connection.run,
    transaction(statements) {
      return connection.transaction(() =>
        statements.map(({ sql, params }) => {
          const prepared = statement(sql, params);
          if (prepared.reader) return prepared.all(...params);
          prepared.run(...params);
          return [];
        }),
      );
    },
  };
}
