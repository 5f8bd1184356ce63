import { startServer, type TestServer } from "../tests/support/server";
import { bringServerBuildUpToDate } from "../tests/support/server-build";

/**
 * One production server on a fresh database for the whole Playwright run.
 * Its port is E2E_PORT, which playwright.config.ts sets when it is not set already.
 * Specs find its database in E2E_DATABASE_URL (workers inherit the environment).
 */
export default async function globalSetup(): Promise<void> {
  bringServerBuildUpToDate();
  const server = await startServer({ port: Number(process.env.E2E_PORT) });
  (globalThis as { e2eServer?: TestServer }).e2eServer = server;
  process.env.E2E_DATABASE_URL = server.databaseUrl;
}
