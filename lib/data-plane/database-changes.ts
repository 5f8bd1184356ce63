import "server-only";
import type pg from "pg";
import type { Logger } from "pino";
import type { DriverConnection } from "./connection";
import type { SqliteConnection } from "./sqlite";

/** The channel the triggers of `*_gateway_changes` notify on PostgreSQL. */
const CHANNEL = "gatehouse_changes";
const SQLITE_WATCH_MS = 250;
const RECONNECT_MS = 1_000;

type Watch = { onChange: () => void; log: Pick<Logger, "warn" | "info"> };

/**
 * Every commit of another connection moves the file's `data_version`, the request log's writer
 * included, so a move only tells that something was written: the count the triggers keep tells
 * whether it was something the gateway keeps. The first look tells too, as PostgreSQL's first
 * LISTEN does: a change made before it would not move the count again.
 */
function watchSqlite(connection: SqliteConnection, { onChange, log }: Watch): () => Promise<void> {
  let seenVersion: number | undefined;
  let seenCount: number | undefined;
  let failing = false;
  async function look() {
    const version = (await connection.get<[number]>("PRAGMA data_version", [], "arrays"))?.[0];
    if (version === seenVersion) return;
    seenVersion = version;
    const count = (await connection.get<[number]>(`SELECT "changes" FROM "GatewayChanges" WHERE "id" = 1`, [], "arrays"))?.[0];
    if (count !== seenCount) onChange();
    seenCount = count;
  }
  let looking: Promise<void> = Promise.resolve();
  function lookNow() {
    looking = look().then(
      () => void (failing = false),
      (error: Error) => {
        if (!failing) log.warn({ err: error.message }, "cannot watch the database for changes; the gateway reads them at its next poll");
        failing = true;
      },
    );
  }
  lookNow();
  const timer = setInterval(lookNow, SQLITE_WATCH_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await looking;
  };
}

/**
 * A connection of its own, outside the pool, listens: NOTIFY reaches only the sessions that
 * listen, and sends nothing again to one that was away, so every time it listens again, the first
 * time included, everything is read again.
 */
function watchPostgres(databaseUrl: string, { onChange, log }: Watch): () => Promise<void> {
  let client: pg.Client | undefined;
  let stopped = false;
  let lost = false;
  let retry: NodeJS.Timeout | undefined;

  function again() {
    if (stopped || retry) return;
    if (!lost) log.warn("lost the database connection that listens for changes; listening again");
    lost = true;
    client?.end().catch(() => undefined);
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, RECONNECT_MS);
    retry.unref();
  }

  async function listen() {
    const { default: driver } = await import("pg");
    const listening = new driver.Client({ connectionString: databaseUrl, keepAlive: true });
    client = listening;
    listening.on("notification", () => onChange());
    listening.on("error", again);
    listening.on("end", again);
    try {
      await listening.connect();
      await listening.query(`LISTEN ${CHANNEL}`);
      if (lost) log.info("listening for database changes again");
      lost = false;
      onChange();
    } catch {
      again();
    }
  }

  void listen();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/**
 * Calls `onChange` soon after a writer commits a change to what the gateway keeps, in whatever
 * process: on PostgreSQL when the triggers' notification arrives, on SQLite when the watch sees
 * the triggers' count move. Resolves `stop` once it no longer watches.
 */
export function watchDatabaseChanges(input: { connection: DriverConnection; databaseUrl: string } & Watch): { stop(): Promise<void> } {
  const { connection, databaseUrl, ...watch } = input;
  return { stop: connection.dialect === "sqlite" ? watchSqlite(connection, watch) : watchPostgres(databaseUrl, watch) };
}
