// npm run bench: the realistic workload (docs/benchmarks.md) on SQLite and on
// PostgreSQL, against Gatehouse, a hand-written service doing the same work and a
// bare node:http server, all in one run; then one single read over and over and
// the token endpoint beside `openssl speed rsa2048`; then the proxy workload
// (proxy-bench.ts). BENCH_QUICK=1 for a short look; BENCH_WORKLOAD=mix or proxy for one of the two.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite from "better-sqlite3";
import pg from "pg";
import { SQLITE_SYNCHRONOUS } from "../../lib/data-plane/sqlite-pragmas";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS, SERVER_ENV, SERVER_NODE_ARGS } from "../../server/server-command";
import { apiKeyReport, benchApiKeys } from "./api-key-bench";
import { benchDpop, dpopReport } from "./dpop-bench";
import { checkIdenticalAnswers } from "./identical";
import { measure, measureInTurns, mixTarget } from "./load";
import { opensslSignsPerSecond } from "./openssl";
import { send } from "./http";
import { BENCH_ENV, POSTGRES_SERVER_URL, QUICK, WORKLOADS } from "./options";
import { freePort, type Server, startServer } from "./processes";
import { benchProxy } from "./proxy-bench";
import { proxyReport } from "./proxy-report";
import { type DialectResult, type Measurement, report } from "./report";
import { probeTokenLatency, type TokenProbeResult } from "./token-probe";
import { tokenRequest, withTokens } from "./tokens";
import { loadWorkload } from "./workload";

const TSX = ["--import", "tsx", "--import", "./lib/runtime/server-only-hook.mjs"];

type Database = { dialect: string; url: string; drop(): Promise<void> };

function sqliteDatabase(): Database {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-bench-"));
  return { dialect: "sqlite", url: `file:${join(dir, "bench.db")}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function postgresDatabase(): Promise<Database> {
  const name = `gatehouse_bench_${process.pid}_${Date.now()}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${name}`;
  return { dialect: "postgresql", url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** BENCH_CPU_PROF=<dir> writes a CPU profile of every Gatehouse process into <dir> when it stops. */
function profiled(args: readonly string[]): readonly string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`, ...args] : args;
}

/** `npm start`, or with `args` another entry; `publicUrl` makes a second process one deployment with the first. */
async function startGatehouse(
  databaseUrl: string,
  args: readonly string[] = SERVER_NODE_ARGS,
  publicUrl?: string,
  env: Record<string, string> = {},
): Promise<Server> {
  const port = await freePort();
  return startServer(
    "Gatehouse",
    port,
    profiled(args),
    {
      NODE_ENV: "production",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? "",
      APP_ENV: "test",
      PUBLIC_URL: publicUrl ?? `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      // The token probe claims a new address per request through this machine, so failure throttles stay out of its figures.
      TRUSTED_PROXIES: "127.0.0.1, ::1",
      SEED_DEMO: "0",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      ...SERVER_ENV,
      ...env,
    },
    "/api/health",
  );
}

type Extras = { single: Measurement; tokens: Measurement; tokenProbe: TokenProbeResult; gatewayOnly: Measurement; rollback: Measurement };

/**
 * What SQLite's write-ahead log with synchronous=NORMAL buys over the rollback
 * journal with synchronous=FULL (Gatehouse's mode before), measured on the
 * hand-written service once every other process has closed the file
 * (docs/decisions/007-gateway-notification-queries.md).
 */
async function measureRollbackJournal(
  database: Database,
  gatehouseOrigin: string,
  jwks: string,
  clients: Parameters<typeof mixTarget>[1],
): Promise<Measurement> {
  const file = new BetterSqlite(database.url.slice("file:".length));
  file.pragma("journal_mode = DELETE");
  file.close();
  const baseline = await startServer("hand-written (rollback journal)", await freePort(), [...TSX, "scripts/bench/baseline-server.ts"], {
    DATABASE_URL: database.url,
    GATEHOUSE_URL: gatehouseOrigin,
    JWKS: jwks,
    SQLITE_SYNCHRONOUS: "FULL",
  });
  try {
    return await measure("hand-written mix (sqlite, rollback journal, FULL)", baseline, mixTarget(baseline.origin, clients));
  } finally {
    await baseline.stop();
  }
}

/** The mix on one database, against Gatehouse and the hand-written service; on the first database also the single read and the token endpoint. */
async function benchDatabase(database: Database, withExtras: boolean): Promise<{ result: DialectResult; extras?: Extras; measurements: Measurement[] }> {
  const stops: (() => Promise<void>)[] = [() => database.drop()];
  try {
    const gatehouse = await startGatehouse(database.url);
    stops.unshift(() => gatehouse.stop());
    process.stderr.write(`loading the ${database.dialect} workload...\n`);
    const clients = await withTokens(gatehouse.origin, await loadWorkload(database.url));
    const jwks = (await send(`${gatehouse.origin}/gw/${BENCH_ENV}/.well-known/jwks.json`)).body;
    const baseline = await startServer("hand-written", await freePort(), [...TSX, "scripts/bench/baseline-server.ts"], {
      DATABASE_URL: database.url,
      GATEHOUSE_URL: gatehouse.origin,
      JWKS: jwks,
      SQLITE_SYNCHRONOUS,
    });
    stops.unshift(() => baseline.stop());
    await checkIdenticalAnswers(gatehouse.origin, baseline.origin, clients);
    const [ours, theirs] = (await measureInTurns([
      { name: `Gatehouse mix (${database.dialect})`, server: gatehouse, target: mixTarget(gatehouse.origin, clients) },
      { name: `hand-written mix (${database.dialect})`, server: baseline, target: mixTarget(baseline.origin, clients) },
    ])) as [Measurement, Measurement];
    const result = { dialect: database.dialect, gatehouse: ours, baseline: theirs };
    if (!withExtras) return { result, measurements: [ours, theirs] };
    const [client] = clients;
    const authorization = `Bearer ${client!.token}`;
    const single = await measure("Gatehouse one notification, over and over", gatehouse, {
      url: `${gatehouse.origin}/gw/sso-qa/notifications/v1/notifications/${client!.notificationIds[0]}`,
      headers: { authorization },
    });
    const tokens = await measure("Gatehouse token endpoint", gatehouse, tokenRequest(gatehouse.origin, client!));
    const tokenProbe = await probeTokenLatency({ tokenUrl: tokenRequest(gatehouse.origin, client!).url, knownClientId: client!.clientId });
    const gatewayProcess = await startGatehouse(database.url, GATEWAY_NODE_ARGS, gatehouse.origin, GATEWAY_ENV);
    stops.unshift(() => gatewayProcess.stop());
    const gatewayOnly = await measure(`gateway-only process mix (${database.dialect})`, gatewayProcess, mixTarget(gatewayProcess.origin, clients));
    for (const stop of stops.splice(0, stops.length - 1)) await stop();
    const rollback = await measureRollbackJournal(database, gatehouse.origin, jwks, clients);
    return { result, extras: { single, tokens, tokenProbe, gatewayOnly, rollback }, measurements: [ours, theirs, single, tokens, gatewayOnly, rollback] };
  } finally {
    for (const stop of stops) await stop();
  }
}

/** The Notifications mix on both databases, with the bare server's figure measured in the same run. */
async function benchMix(): Promise<string> {
  const opensslSigns = opensslSignsPerSecond(QUICK ? 1 : 3);
  const bare = await startServer("bare node:http", await freePort(), [...TSX, "scripts/bench/bare-server.ts"], {});
  try {
    const sqlite = await benchDatabase(sqliteDatabase(), true);
    const postgres = POSTGRES_SERVER_URL === "none" ? undefined : await benchDatabase(await postgresDatabase(), false);
    const bareMix = await measure("bare node:http", bare, { url: bare.origin });
    return report({
      measurements: [...sqlite.measurements, ...(postgres?.measurements ?? []), bareMix],
      dialects: [sqlite.result, ...(postgres ? [postgres.result] : [])],
      bare: bareMix,
      tokens: sqlite.extras!.tokens,
      tokenProbe: sqlite.extras!.tokenProbe,
      opensslSigns,
    });
  } finally {
    await bare.stop();
  }
}

async function main(): Promise<void> {
  const reports: string[] = [];
  if (WORKLOADS.has("mix")) reports.push(await benchMix());
  if (WORKLOADS.has("proxy")) reports.push(proxyReport(await benchProxy(sqliteDatabase(), startGatehouse)));
  if (WORKLOADS.has("dpop")) {
    const database = sqliteDatabase();
    reports.push(dpopReport(await benchDpop(database.url, startGatehouse).finally(() => database.drop())));
  }
  if (WORKLOADS.has("keys")) {
    const database = sqliteDatabase();
    reports.push(apiKeyReport(await benchApiKeys(database.url, startGatehouse).finally(() => database.drop())));
  }
  console.log(reports.join("\n"));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ""}` : error);
    process.exit(1);
  },
);
