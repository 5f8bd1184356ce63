// Checks that the Notifications API's queries stay single index range scans at
// 1 million notifications, on SQLite and (when a server URL is given) PostgreSQL:
//   node --import tsx --import ./lib/runtime/server-only-hook.mjs scripts/explain-notifications.ts [postgresql://root@127.0.0.1:5432/postgres]
// (TEST_POSTGRES_URL also selects the PostgreSQL server.) Exits 1 when a plan scans the table or sorts.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { sqlitePath } from "../lib/database-url";
import type { Db } from "../lib/db";
import { PrismaClient } from "../lib/generated/prisma/sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "../lib/generated/prisma/postgresql/client";
import { getNotification } from "../lib/notifications/get-notification";
import { listNotifications } from "../lib/notifications/list-notifications";
import { listNotificationsQuerySchema } from "../lib/notifications/schemas";
import type { NotificationStore } from "../lib/data-plane/notifications";
import { type DriverConnection, openDriver } from "../lib/data-plane/connection";
import { createNotificationStore } from "../lib/data-plane/notifications-for-connection";
import { explainPlan, insertSampleNotifications, type NotificationSample } from "../lib/data-plane/plan-check-queries";
import { createPostgresDatabase, createSqliteDatabase, type TestDatabase } from "../lib/database/test-databases";
import { applyMigrations } from "../lib/database/migrations";

const SAMPLE: NotificationSample = {
  environmentId: "env_explain",
  heavyClientId: "gci_heavy",
  clients: 100,
  total: 1_000_000,
  newest: new Date("2026-01-01T00:00:00.000Z"),
};

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

/**
 * The script's two connections to `database`: the gateway's, whose statements are reported
 * into `captured`, and one that fills it and explains them, as a batch writer, which
 * checkpoints SQLite's write-ahead log while it fills.
 */
async function openDialect(name: string, database: TestDatabase, db: Db, captured: CapturedQuery[]): Promise<Dialect> {
  const filler = openDriver(database.url, { batchWriter: true });
  await insertSampleNotifications(filler, SAMPLE);
  const connection = openDriver(database.url, { onQuery: (sql, params) => captured.push({ sql, params }) });
  return {
    name,
    db,
    store: createNotificationStore(connection),
    captured,
    explain: ({ sql, params }) => explainPlan(filler, sql, params),
    async close() {
      await db.$disconnect();
      await Promise.all([connection, filler].map((opened: DriverConnection) => opened.close()));
    },
  };
}

function sqliteDialect(database: TestDatabase): Promise<Dialect> {
  const captured: CapturedQuery[] = [];
  const path = sqlitePath(database.url);
  const db = capturing(new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: path }), log: [{ emit: "event", level: "query" }] }), captured);
  return openDialect("SQLite", database, db, captured);
}

function postgresDialect(database: TestDatabase): Promise<Dialect> {
  const captured: CapturedQuery[] = [];
  const client = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: database.url }), log: [{ emit: "event", level: "query" }] });
  return openDialect("PostgreSQL", database, capturing(client, captured) as unknown as Db, captured);
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
  const owner = { environmentId: SAMPLE.environmentId, clientId: SAMPLE.heavyClientId };
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
    console.log(`${name}: inserted ${SAMPLE.total.toLocaleString("en")} notifications in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
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
