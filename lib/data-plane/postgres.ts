import "server-only";
import type pg from "pg";
import type { QueryListener } from "./query-listener";
import type { RowShape } from "./sqlite";
import { postgresIsoTime } from "./time";

const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;

function parseType(types: typeof pg.types, oid: number, format?: "text" | "binary") {
  return oid === TIMESTAMP_WITHOUT_TIME_ZONE ? postgresIsoTime : types.getTypeParser(oid, format);
}

export type PostgresQuery = <Row extends object>(sql: string, values: readonly unknown[], shape?: RowShape) => Promise<{ rows: Row[]; rowCount: number }>;

/** A pool of connections to Gatehouse's database, for the gateway's queries; times come back as ISO 8601 text. */
export type PostgresConnection = {
  dialect: "postgresql";
  /** Runs `sql`, prepared once per connection (a named statement). */
  query: PostgresQuery;
  /** Runs `work`'s queries on one connection as one transaction. */
  transaction<T>(work: (query: PostgresQuery) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/**
 * A pool of at most `poolSize` connections (`DATABASE_POOL_SIZE`). With `batchWriter`,
 * its sessions commit without waiting for the WAL to reach the disk
 * (`synchronous_commit = off`, docs/decisions/020-request-log-commits.md).
 */
export function openPostgres(
  connectionString: string,
  poolSize: number,
  { onQuery, batchWriter = false }: { onQuery?: QueryListener; batchWriter?: boolean } = {},
): PostgresConnection {
  let pool: pg.Pool | undefined;
  // pg is loaded with the first PostgreSQL connection, so that a process on SQLite holds none of it.
  const opened = import("pg").then(({ default: driver }) => {
    const types = driver.types;
    pool = new driver.Pool({
      connectionString,
      max: poolSize,
      ...(batchWriter ? { options: "-c synchronous_commit=off" } : {}),
      types: { getTypeParser: ((oid: number, format?: "text" | "binary") => parseType(types, oid, format)) as typeof types.getTypeParser },
    });
    // An idle connection the server ended (a restart, a terminated backend, one still closing
    // after `close`) is dropped by the pool, and the next query opens another; unheard, the
    // pool's error event would end the process.
    pool.on("error", () => undefined);
    return pool;
  });
  const names = new Map<string, string>();
  const run = async <Row extends object>(client: pg.Pool | pg.PoolClient, sql: string, values: readonly unknown[], shape: RowShape = "objects") => {
    onQuery?.(sql, [...values]);
    let name = names.get(sql);
    if (!name) names.set(sql, (name = `gatehouse_${names.size}`));
    const query: pg.QueryConfig & { rowMode?: "array" } = { name, text: sql, values: [...values], rowMode: shape === "arrays" ? "array" : undefined };
    const { rows, rowCount } = await client.query<Row>(query);
    return { rows, rowCount: rowCount ?? 0 };
  };
  return {
    dialect: "postgresql",
    // Once pg has loaded, a query goes straight to the pool, with no promise of the load in between.
    query: (sql, values, shape) => (pool ? run(pool, sql, values, shape) : opened.then((loaded) => run(loaded, sql, values, shape))),
    async transaction(work) {
      const client = await (pool ?? (await opened)).connect();
      try {
        await client.query("BEGIN");
        const result = await work((sql, values) => run(client, sql, values));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await (await opened).end();
    },
  };
}
