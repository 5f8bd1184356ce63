// The built portal as a visitor meets it, for the page audit and the README's screenshot:
// `npm start`'s production server on a free port, with a temporary SQLite database and the demo seed.
import { randomBytes } from "node:crypto";
import { createSqliteDatabase } from "../../lib/database/test-databases";
import { SERVER_NODE_ARGS } from "../../server/server-command";
import { freePort, startServer } from "../bench/processes";

export type Portal = { origin: string; stop(): Promise<void> };

export async function startPortal(): Promise<Portal> {
  const database = createSqliteDatabase();
  const port = await freePort();
  // The seed prints the demo accounts' passwords and client secrets on stdout, which startServer discards.
  const server = await startServer(
    "Gatehouse",
    port,
    SERVER_NODE_ARGS,
    {
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? "",
      APP_ENV: "production",
      AUTH_SECRET: randomBytes(32).toString("base64"),
      SEED_DEMO: "1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: database.url,
      LOG_LEVEL: "warn",
    },
    "/api/health",
  ).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  return {
    origin: server.origin,
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}
