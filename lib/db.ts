import "server-only";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { type Prisma, PrismaClient } from "./generated/prisma/sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "./generated/prisma/postgresql/client";
import { commandScope } from "./command-scope";
import { config } from "./config";
import { sqlitePath } from "./database-url";
import { closeGatewayChangePublisher, publishingGatewayChanges } from "./gateway-changes";

export type Db = PrismaClient;
/** The client inside `db.$transaction(async (tx) => …)`: the same model API, without `$transaction`. */
export type Tx = Prisma.TransactionClient;
/** What a service takes: the root client, or the transaction of a caller that runs several services as one change. */
export type DbClient = Db | Tx;
export * from "./generated/prisma/sqlite/enums";

/**
 * Prisma's SQLite adapter opens a transaction with a deferred `BEGIN`. In WAL mode a
 * transaction that has read and then writes after another connection committed (the
 * request log's writer, beside every portal and CLI change) fails at once with
 * SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out. `BEGIN IMMEDIATE` takes the
 * write lock first and waits for it up to the busy timeout. The adapter keeps its
 * better-sqlite3 connection as `client`, and begins with `client.prepare("BEGIN")`.
 */
class ImmediateTransactions extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    const client = (adapter as unknown as { client: { prepare(sql: string): unknown } }).client;
    const prepare = client.prepare.bind(client);
    client.prepare = (sql) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql);
    return adapter;
  }
}

/**
 * Both generated clients expose the same model API (they come from one schema);
 * only the SQL dialect differs, so the PostgreSQL client is typed as the SQLite one. Its writes
 * to what the gateway keeps are published on Redis once committed (`gateway-changes.ts`).
 */
export function createDb(databaseUrl: string): Db {
  if (databaseUrl.startsWith("file:")) {
    const path = sqlitePath(databaseUrl);
    mkdirSync(dirname(path), { recursive: true });
    return publishingGatewayChanges(new PrismaClient({ adapter: new ImmediateTransactions({ url: path, timeout: 10_000 }) }));
  }
  return publishingGatewayChanges(new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) }) as unknown as Db);
}

const globalForDb = globalThis as unknown as { gatehouseDb?: Db };
const COMMAND_DB = Symbol("db");

/**
 * One client per process, also across Next's module reloads in development; inside a command
 * run in-process (`lib/command-scope.ts`), one for that command, on its configuration's database.
 */
export function db(): Db {
  const scope = commandScope();
  if (scope) return scope.slot(COMMAND_DB, () => createDb(config().databaseUrl));
  globalForDb.gatehouseDb ??= createDb(config().databaseUrl);
  return globalForDb.gatehouseDb;
}

/**
 * Closes the process's client (or the command's, inside one) where one was opened, so that a
 * command-line run ends with its connections closed.
 */
export async function disconnectDb(): Promise<void> {
  const scope = commandScope();
  const client = scope ? scope.take<Db>(COMMAND_DB) : globalForDb.gatehouseDb;
  if (!scope) globalForDb.gatehouseDb = undefined;
  await Promise.all([client?.$disconnect(), closeGatewayChangePublisher()]);
}

/**
 * Runs `work` in a transaction: a new one on the root client, or the caller's
 * when `db` is already a transaction client, so a service is atomic on its own
 * and still joins a larger change.
 */
export function inTransaction<T>(db: DbClient, work: (tx: Tx) => Promise<T>, options?: { timeoutMs: number }): Promise<T> {
  return "$transaction" in db ? db.$transaction(work, options && { timeout: options.timeoutMs }) : work(db);
}
