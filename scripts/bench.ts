// npm run bench: starts the built production server on a fresh SQLite database
// and a bare node:http server, then measures on loopback, in one run:
// an authenticated gateway read, a trivial Next route handler, the bare server,
// and the token endpoint. Bounded: each measurement lasts BENCH_SECONDS (default 10).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEVELOPMENT_AUTH_SECRET } from "../lib/config";
import { createDb } from "../lib/db";
import { createNotifications } from "../lib/notifications/create-notifications";
import { CLI_ACTOR } from "../lib/portal/audit";
import { createCredential, ensureApplication } from "../lib/portal/credentials";
import { probeTokenLatency, tokenProbeLine } from "./bench/token-probe";
import { SERVER_NODE_ARGS } from "./server-command";

type Result = {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
};
type Target = { url: string; method?: string; headers?: Record<string, string>; body?: string };
type Autocannon = (options: Target & { connections: number; duration: number }) => Promise<Result>;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const ROOT = join(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const ENV = "sso-qa";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up`);
}

function startGatehouse(port: number, databaseUrl: string): ChildProcess {
  return spawn(process.execPath, SERVER_NODE_ARGS, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? "",
      APP_ENV: "test",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
      TRUSTED_PROXIES: "127.0.0.1, ::1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

const BARE_SERVER = `require("node:http").createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end('{"ok":true}');
}).listen(Number(process.argv[1]), "127.0.0.1");`;

/** The environment's bucket is raised so the benchmark measures serving, not refusing. */
async function prepareClient(databaseUrl: string) {
  const db = createDb(databaseUrl);
  try {
    await db.environment.update({ where: { slug: ENV }, data: { rateLimitBurst: 1_000_000_000, rateLimitPerSecond: 1_000_000_000 } });
    const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: "Benchmark" });
    const { credential, secret } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: ENV, authSecret: DEVELOPMENT_AUTH_SECRET });
    const environment = await db.environment.findUniqueOrThrow({ where: { slug: ENV } });
    // A full page for the list measurement; the read measurement reads the first one.
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      ids.push(
        ...(await createNotifications({
          db,
          environmentId: environment.id,
          recipients: { clientIds: [credential.clientId] },
          title: `Benchmark ${i + 1}`,
          body: "A notification to read again and again.",
          createdAt: new Date(Date.now() - i * 1000),
        })),
      );
    }
    return { clientId: credential.clientId, clientSecret: secret!.clientSecret, notificationId: ids[0]! };
  } finally {
    await db.$disconnect();
  }
}

async function measure(name: string, options: Target, expectStatus = 200): Promise<Result> {
  const check = await fetch(options.url, { method: options.method, headers: options.headers, body: options.body });
  if (check.status !== expectStatus) throw new Error(`${name}: expected ${expectStatus}, got ${check.status}: ${await check.text()}`);
  await autocannon({ ...options, connections: CONNECTIONS, duration: Math.min(2, SECONDS) });
  process.stderr.write(`measuring ${name} for ${SECONDS} s...\n`);
  return autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
}

function row(name: string, result: Result): string {
  const failures = result.non2xx + result.errors + result.timeouts;
  return `${name.padEnd(34)} ${Math.round(result.requests.average).toString().padStart(8)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms${failures ? `   (${failures} failed)` : ""}`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-bench-"));
  const databaseUrl = `file:${join(dir, "bench.db")}`;
  const [port, barePort] = [await freePort(), await freePort()];
  const gatehouse = startGatehouse(port, databaseUrl);
  const bare = spawn(process.execPath, ["-e", BARE_SERVER, String(barePort)], { stdio: "inherit" });
  const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(undefined)));
  // The database goes only once the server has stopped writing to it.
  const stop = async () => {
    gatehouse.kill("SIGTERM");
    bare.kill("SIGTERM");
    await Promise.race([Promise.all([exited(gatehouse), exited(bare)]), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("SIGINT", () => void stop().then(() => process.exit(130)));
  try {
    const origin = `http://127.0.0.1:${port}`;
    await waitFor(`${origin}/api/health`, gatehouse);
    await waitFor(`http://127.0.0.1:${barePort}/`, bare);
    const client = await prepareClient(databaseUrl);
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}`;
    const tokenOptions = {
      url: `${origin}/gw/${ENV}/oauth2/token`,
      method: "POST",
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    };
    const tokenResponse = await fetch(tokenOptions.url, tokenOptions);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

    const gateway = await measure("gateway GET /v1/notifications/{id}", {
      url: `${origin}/gw/${ENV}/notifications/v1/notifications/${client.notificationId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const list = await measure("gateway GET /v1/notifications (20)", {
      url: `${origin}/gw/${ENV}/notifications/v1/notifications?limit=20`,
      headers: { authorization: `Bearer ${token}` },
    });
    const nextRoute = await measure("Next route GET /api/next-ping", { url: `${origin}/api/next-ping` });
    const bareNode = await measure("bare node:http", { url: `http://127.0.0.1:${barePort}/` });
    const tokens = await measure("token endpoint POST /oauth2/token", tokenOptions);
    const probe = await probeTokenLatency({ tokenUrl: tokenOptions.url, knownClientId: client.clientId });

    const toNext = gateway.requests.average / nextRoute.requests.average;
    const toBare = gateway.requests.average / bareNode.requests.average;
    const lines = [
      "",
      `Gatehouse benchmark: ${CONNECTIONS} connections, ${SECONDS} s each, loopback`,
      row("gateway GET /v1/notifications/{id}", gateway),
      row("gateway GET /v1/notifications (20)", list),
      row("Next route GET /api/next-ping", nextRoute),
      row("bare node:http", bareNode),
      row("token endpoint POST /oauth2/token", tokens),
      "",
      `gateway / Next route : ${toNext.toFixed(1)}x   (target >= 10x)   ${toNext >= 10 ? "met" : "NOT met"}`,
      `gateway / bare node  : ${(toBare * 100).toFixed(0)}%   (target >= 20%)   ${toBare >= 0.2 ? "met" : "NOT met"}`,
      `gateway p99          : ${gateway.latency.p99} ms   (target <= 10 ms)   ${gateway.latency.p99 <= 10 ? "met" : "NOT met"}`,
      `tokens per second    : ${Math.round(tokens.requests.average)}   (target >= 1500)   ${tokens.requests.average >= 1500 ? "met" : "NOT met"}`,
      tokenProbeLine(probe),
      "",
    ];
    console.log(lines.join("\n"));
  } finally {
    await stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
