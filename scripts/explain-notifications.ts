// Checks that the Notifications API's queries stay single index range scans at
// 1 million notifications, on SQLite and (when a server URL is given) PostgreSQL:
//   node --import tsx --import ./lib/runtime/server-only-hook.mjs scripts/explain-notifications.ts [postgresql://root@127.0.0.1:5432/postgres]
// (TEST_POSTGRES_URL also selects the PostgreSQL server.) Exits 1 when a plan scans the table or sorts.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import Database from "better-sqlite3";
import pg from "pg";
import { sqlitePath } from "../lib/database-url";
import type { Db } from "../lib/db";
import { PrismaClient } from "../lib/generated/prisma/sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "../lib/generated/prisma/postgresql/client";
import { getNotification } from "../lib/notifications/get-notification";
import { listNotifications } from "../lib/notifications/list-notifications";
import { listNotificationsQuerySchema } from "../lib/notifications/schemas";
import type { NotificationStore } from "../lib/data-plane/notifications";
import { openDriver } from "../lib/data-plane/connection";
import { createNotificationStore } from "../lib/data-plane/notifications-for-connection";
import { createPostgresDatabase, createSqliteDatabase, type TestDatabase } from "../lib/database/test-databases";
import { applyMigrations } from "../lib/database/migrations";

const TOTAL_ROWS = 1_000_000;
const CLIENTS = 100;
/** The client under test holds half of all rows, so a plan that scans its range would show. */
const HEAVY_CLIENT = "gci_heavy";
const ENVIRONMENT = "env_explain";
const NEWEST = Date.parse("2026-01-01T00:00:00.000Z");

type CapturedQuery = { sql: string; params: unknown[] };
type Dialect = {
  name: string;
  db: Db;
  /** the gateway's notification store, reporting the SQL it sends into `captured` */
  store: NotificationStore;
  captured: CapturedQuery[];
  explain(query: CapturedQuery): Promise<string[]>;
  close(): Promise<void>;
};

/** A Prisma client like the app's, but reporting the SQL it sends. */
function capturing<T extends { $on(event: "query", listener: (event: { query: string; params: string }) => void): void }>(
  client: T,
  captured: CapturedQuery[],
): T {
  client.$on("query", (event) => captured.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] }));
  return client;
}

async function sqliteDialect(database: TestDatabase): Promise<Dialect> {
  const path = sqlitePath(database.url);
  const raw = new Database(path);
  raw.exec(
    `INSERT INTO "Environment" (id, slug, name, "credentialType", "updatedAt") VALUES ('${ENVIRONMENT}', 'explain', 'Explain', 'PLATFORM', '2026-01-01T00:00:00.000+00:00')`,
  );
  raw.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TOTAL_ROWS})
    INSERT INTO "Notification" (id, "environmentId", "clientId", title, body, category, severity, status, "createdAt", "updatedAt")
    SELECT printf('ntf_%010d', i), '${ENVIRONMENT}',
           CASE WHEN i % 2 = 0 THEN '${HEAVY_CLIENT}' ELSE 'gci_' || (i % ${CLIENTS}) END,
           'Notification ' || i, '', 'system', 'info',
           CASE i % 3 WHEN 0 THEN 'unread' WHEN 1 THEN 'read' ELSE 'archived' END,
           strftime('%Y-%m-%dT%H:%M:%f+00:00', ${NEWEST / 1000} - i * 5, 'unixepoch'),
           strftime('%Y-%m-%dT%H:%M:%f+00:00', ${NEWEST / 1000} - i * 5, 'unixepoch')
    FROM n`);
  raw.exec("ANALYZE");
  const captured: CapturedQuery[] = [];
  const db = capturing(new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: path }), log: [{ emit: "event", level: "query" }] }), captured);
  const connection = openDriver(database.url, { onQuery: (sql, params) => captured.push({ sql, params }) });
  const store = createNotificationStore(connection);
  return {
    name: "SQLite",
    db,
    store,
    captured,
    async explain({ sql, params }) {
      const rows = raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { detail: string }[];
      return rows.map((row) => row.detail);
    },
    async close() {
      await db.$disconnect();
      await connection.close();
      raw.close();
    },
  };
}

async function postgresDialect(database: TestDatabase): Promise<Dialect> {
  const raw = new pg.Client({ connectionString: database.url });
  await raw.connect();
  await raw.query(
    `INSERT INTO "Environment" (id, slug, name, "credentialType", "updatedAt") VALUES ('${ENVIRONMENT}', 'explain', 'Explain', 'PLATFORM', now())`,
  );
  await raw.query(`
    INSERT INTO "Notification" (id, "environmentId", "clientId", title, body, category, severity, status, "createdAt", "updatedAt")
    SELECT 'ntf_' || lpad(i::text, 10, '0'), '${ENVIRONMENT}',
           CASE WHEN i % 2 = 0 THEN '${HEAVY_CLIENT}' ELSE 'gci_' || (i % ${CLIENTS}) END,
           'Notification ' || i, '', 'system', 'info',
           (ARRAY['unread', 'read', 'archived'])[i % 3 + 1]::"NotificationStatus",
           to_timestamp(${NEWEST / 1000} - i * 5), to_timestamp(${NEWEST / 1000} - i * 5)
    FROM generate_series(1, ${TOTAL_ROWS}) AS i`);
  await raw.query(`ANALYZE "Notification"`);
  const captured: CapturedQuery[] = [];
  const client = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: database.url }), log: [{ emit: "event", level: "query" }] });
  const db = capturing(client, captured) as unknown as Db;
  const connection = openDriver(database.url, { onQuery: (sql, params) => captured.push({ sql, params }) });
  const store = createNotificationStore(connection);
  return {
    name: "PostgreSQL",
    db,
    store,
    captured,
    async explain({ sql, params }) {
      const result = await raw.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      return result.rows.map((row: Record<string, string>) => row["QUERY PLAN"]!);
    },
    async close() {
      await db.$disconnect();
      await connection.close();
      await raw.end();
    },
  };
}

/** A plan is good when it reads the notification index (or the primary key) and neither scans the table nor sorts. */
function problemsOf(plan: string[]): string[] {
  const text = plan.join("\n");
  const problems: string[] = [];
  if (/SCAN "?Notification"?(?! USING)|Seq Scan/i.test(text)) problems.push("scans the whole table");
  if (/TEMP B-TREE|Sort/i.test(text)) problems.push("sorts instead of reading the index in order");
  if (!/Notification_environmentId_clientId_createdAt_id_version_idx|Notification_pkey|PRIMARY KEY|sqlite_autoindex_Notification/i.test(text)) {
    problems.push("uses neither the notification index nor the primary key");
  }
  return problems;
}

async function check(dialect: Dialect): Promise<boolean> {
  const owner = { environmentId: ENVIRONMENT, clientId: HEAVY_CLIENT };
  const cases: [string, () => Promise<unknown>][] = [
    ["first page of 20", () => listNotifications({ store: dialect.store, ...owner, query: listNotificationsQuerySchema.parse({}) })],
    [
      "page 10 000 of 20 (cursor)",
      async () => {
        const middle = await dialect.db.notification.findFirstOrThrow({ where: owner, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: 200_000 });
        const cursor = Buffer.from(JSON.stringify([middle.createdAt.getTime(), middle.id])).toString("base64url");
        dialect.captured.length = 0;
        return listNotifications({ store: dialect.store, ...owner, query: listNotificationsQuerySchema.parse({ cursor }) });
      },
    ],
    [
      "filtered: status=unread, limit=100",
      () => listNotifications({ store: dialect.store, ...owner, query: listNotificationsQuerySchema.parse({ status: "unread", limit: "100" }) }),
    ],
    ["one notification by id", () => getNotification({ store: dialect.store, ...owner, id: "ntf_0000500000" })],
  ];
  let good = true;
  for (const [label, run] of cases) {
    dialect.captured.length = 0;
    const startedAt = performance.now();
    await run();
    const elapsedMs = performance.now() - startedAt;
    const query = dialect.captured.at(-1);
    if (!query || dialect.captured.length !== 1) throw new Error(`${label}: expected one query, saw ${dialect.captured.length}`);
    const plan = await dialect.explain(query);
    const problems = problemsOf(plan);
    good &&= problems.length === 0;
    console.log(`\n${dialect.name} — ${label} (${elapsedMs.toFixed(1)} ms, 1 query)${problems.length ? `  PROBLEM: ${problems.join(", ")}` : ""}`);
    console.log(plan.map((line) => `  ${line}`).join("\n"));
  }
  return good;
}

async function run(name: string, create: () => Promise<TestDatabase>, open: (database: TestDatabase) => Promise<Dialect>): Promise<boolean> {
  const database = await create();
  try {
    await applyMigrations(database.url);
    const startedAt = performance.now();
    const dialect = await open(database);
    console.log(`${name}: inserted ${TOTAL_ROWS.toLocaleString("en")} notifications in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
    try {
      return await check(dialect);
    } finally {
      await dialect.close();
    }
  } finally {
    await database.drop();
  }
}

async function main(): Promise<void> {
  const postgresServer = process.argv[2] ?? process.env.TEST_POSTGRES_URL;
  let good = await run("SQLite", async () => createSqliteDatabase(), sqliteDialect);
  if (postgresServer) good = (await run("PostgreSQL", () => createPostgresDatabase(postgresServer), postgresDialect)) && good;
  else console.log("\n(PostgreSQL skipped: pass a server URL or set TEST_POSTGRES_URL)");
  console.log(good ? "\nEvery plan is an index range scan." : "\nSome plans are not index range scans.");
  process.exitCode = good ? 0 : 1;
}

await main();
