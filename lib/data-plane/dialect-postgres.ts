import "server-only";
import type { Dialect } from "./dialect";
import type { PostgresConnection } from "./postgres";
import { postgresTime } from "./time";

/**
 * PostgreSQL's part of the stores: numbered parameters, cast where the server cannot tell
 * their type, lists as arrays; times, jsonb and booleans come back decoded (`postgres.ts`).
 */
export function postgresDialect(connection: PostgresConnection): Dialect {
  const { query } = connection;
  return {
    roundTrips: true,
    param: (index, type) => (type ? `$${index}::${type}` : `$${index}`),
    inList: (column, index) => `${column} = ANY($${index}::text[])`,
    text: (column) => `${column}::text`,
    list: (values) => values,
    time: postgresTime,
    isoTime: (stored) => stored,
    json: (stored) => stored,
    flag: (stored) => stored === true,
    all: async (sql, params, shape) => (await query(sql, params, shape)).rows as never[],
    get: async (sql, params, shape) => (await query(sql, params, shape)).rows[0] as never,
    run: async (sql, params) => (await query(sql, params)).rowCount,
    transaction(statements) {
      return connection.transaction(async (inTransaction) => {
        const results: unknown[][] = [];
        for (const { sql, params } of statements) results.push((await inTransaction(sql, params)).rows);
        return results;
      });
    },
  };
}
