import { type ChildProcess, spawn } from "node:child_process";
import { get } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { createMigratedTestDatabase } from "../../lib/database/migrated-template";
import type { TestDatabase } from "../../lib/database/test-databases";
import { SERVER_ENV, SERVER_NODE_ARGS } from "../../server/server-command";
import { inheritedEnv } from "./child-env";

const ROOT = join(import.meta.dirname, "..", "..");

export const TEST_ADMIN_PASSWORD = "admin-password-for-tests";
export const TEST_DEVELOPER_PASSWORD = "developer-password-for-tests";

export type TestServer = {
  url: string;
  port: number;
  /** the server's process: with GATEWAY_PROCESSES above 1, the cluster's primary */
  pid: number;
  databaseUrl: string;
  /** everything the server printed so far, stdout and stderr */
  output(): string;
  /** what the server printed once the log lines of every request sent so far are out */
  settledOutput(): Promise<string>;
  stop(): Promise<void>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * 200 from `/api/health`, on a connection of its own that is closed afterwards: a
 * pooled one could sit idle past the server's keep-alive timeout while a test
 * prepares its data, and fetch would then send the test's first request on it.
 */
function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    get(`${url}/api/health`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    }).on("error", () => resolve(false));
  });
}

/**
 * Waits until the child says it listens and `/api/health` answers 200. Both: another test's
 * server that took the same free port first would answer the health check for a child that
 * could not listen.
 */
async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    if (output().includes("is listening on ") && (await healthy(url))) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`server did not become healthy:\n${output()}`);
}

/**
 * Starts the built production server (`server.ts`, as `npm start` does, or the
 * entry `nodeArgs` name) on a free port against a fresh database of its own, and
 * waits until it is healthy. That database starts migrated and empty, as `npm run db:migrate`
 * leaves a new one; a test that starts a server on an empty database passes `database`.
 */
export async function startServer(
  options: { env?: Record<string, string>; database?: TestDatabase; port?: number; nodeArgs?: readonly string[]; portsTried?: number } = {},
): Promise<TestServer> {
  const port = options.port ?? (await freePort());
  const database = options.database ?? (await createMigratedTestDatabase());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, options.nodeArgs ?? SERVER_NODE_ARGS, {
    cwd: ROOT,
    env: {
      ...inheritedEnv(),
      ...SERVER_ENV,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? "",
      APP_ENV: "test",
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: database.url,
      SEED_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      SEED_DEVELOPER_PASSWORD: TEST_DEVELOPER_PASSWORD,
      // The PostgreSQL suite sizes every server's pool down (scripts/test-postgres.sh).
      ...(process.env.TEST_DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.TEST_DATABASE_POOL_SIZE } : {}),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await waitForHealth(url, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    // The port chosen was free when asked, but another test's server took it before this one listened.
    if (options.port === undefined && output.includes("EADDRINUSE") && (options.portsTried ?? 0) < 3) {
      return startServer({ ...options, database, portsTried: (options.portsTried ?? 0) + 1 });
    }
    await database.drop();
    throw error;
  }
  let marks = 0;
  return {
    url,
    port,
    pid: child.pid!,
    databaseUrl: database.url,
    output: () => output,
    // Access lines are written in batches, in order: once a new request's line is out, every earlier one is.
    async settledOutput() {
      const mark = `settled-${++marks}`;
      await fetch(`${url}/gw/-/settled`, { headers: { "x-request-id": mark } });
      const deadline = Date.now() + 10_000;
      while (!output.includes(`"${mark}"`)) {
        if (Date.now() > deadline) throw new Error(`no access line for ${mark}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return output;
    },
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      if (!options.database) await database.drop();
    },
  };
}
