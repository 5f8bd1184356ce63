import "server-only";
import { DEFAULT_DATABASE_POOL_SIZE, sqlitePath } from "../database-url";
import { openPostgres, type PostgresConnection } from "./postgres";
import type { QueryListener } from "./query-listener";
import { openSqlite, type SqliteConnection } from "./sqlite";

/**
 * The gateway's own connection to the database, through the driver Prisma's adapter
 * uses, with statements prepared once: on the data path Prisma's client runtime cost
 * more than the queries, and its query compiler alone holds about 60 MB
 * (docs/decisions/007-gateway-notification-queries.md).
 */
export type DriverConnection = SqliteConnection | PostgresConnection;

type DriverOptions = {
  onQuery?: QueryListener;
  poolSize?: number;
  /** The connection of a writer that commits in batches (`SqliteOptions`; on PostgreSQL, `openPostgres`). */
  batchWriter?: boolean;
};

/** On PostgreSQL a pool of `poolSize` connections; on SQLite one connection, as its one writer at a time allows. */
export function openDriver(databaseUrl: string, { onQuery, poolSize = DEFAULT_DATABASE_POOL_SIZE, batchWriter }: DriverOptions = {}): DriverConnection {
  return databaseUrl.startsWith("file:")
    ? openSqlite(sqlitePath(databaseUrl), { onQuery, batchWriter })
    : openPostgres(databaseUrl, poolSize, { onQuery, batchWriter });
}
