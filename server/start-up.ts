import { createServer } from "node:net";
import { type Config, ConfigError, parseConfig } from "../lib/config";
import { databaseLabel } from "../lib/database-label";

/**
 * A start-up step failed for a reason the operator can fix; the message says how, in one line.
 * Known by its name: the gateway-only entry and its serving process are bundled apart, each
 * with a class of its own (scripts/build-server.mjs).
 */
export class StartupError extends Error {
  override name = "StartupError";
}

/** A Redis URL as it may be shown: without its password. */
export function redisLabel(redisUrl: string): string {
  const url = new URL(redisUrl);
  url.password = "";
  return url.toString();
}

/** An error's first line, for the one line a start-up step fails with. */
export function reason(error: unknown): string {
  const message = error instanceof Error ? error.message || (error as NodeJS.ErrnoException).code || error.name : String(error);
  return message.split("\n")[0]!.trim();
}

/** Runs a step that needs the database, turning its failure into one line. */
export async function withDatabase<T>(databaseUrl: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new StartupError(
      `Cannot use the database ${databaseLabel(databaseUrl)} (${reason(error)}). Check that it runs and that DATABASE_URL names it (process environment or .env).`,
    );
  }
}

export function portTakenMessage(port: number): string {
  return `Port ${port} is already in use. Stop the process that holds it, or set PORT (process environment or .env) to a free port.`;
}

/**
 * Holds `port` through the steps before serving, so that a port another process holds ends
 * start-up before the database is seeded: the demo accounts' passwords, printed once when
 * they are seeded, are then printed by a start that serves. `release` hands the port over.
 */
export async function reservePort(port: number): Promise<{ release: () => Promise<void> }> {
  // A connection made meanwhile (a health check polling for the start) is closed at once:
  // `close` waits for open connections, and one left open would hold the start forever.
  const holder = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    holder.once("error", (error: NodeJS.ErrnoException) => reject(error.code === "EADDRINUSE" ? new StartupError(portTakenMessage(port)) : error));
    holder.listen(port, () => resolve());
  });
  return { release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

/**
 * The public URL the admin CLI works out, which invitation links and `config export`'s
 * `$schema` name: like this process, but with PORT and PUBLIC_URL from `.env` only, since
 * an operator's shell rarely has the ones given on `npm start`'s command line.
 */
export function cliPublicUrl(env: Record<string, string | undefined>, envFile: Record<string, string>): string | undefined {
  try {
    return parseConfig({ ...env, PORT: envFile.PORT, PUBLIC_URL: envFile.PUBLIC_URL }).publicUrl;
  } catch (error) {
    // A PORT or PUBLIC_URL in .env that this process's own overrode: the CLI's start names it.
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

/**
 * What the operator needs to know once the server listens; never passwords. It leads with
 * this process's own port: processes of one deployment share PUBLIC_URL (a gateway-only
 * process on 3001 behind the same public URL as the full instance on 3000), which is
 * shown apart when it is not this process's own address. When the admin CLI would work out
 * another public URL (`cliPublicUrl`), one line says where to set it.
 */
export function startupBanner(settings: Pick<Config, "port" | "publicUrl" | "databaseUrl" | "redisUrl"> & { cliPublicUrl?: string }, serves: string): string {
  const ownUrl = `http://localhost:${settings.port}`;
  const cliUrl = settings.cliPublicUrl;
  return [
    "",
    "Gatehouse",
    `  ${serves.padEnd(18)}  ${ownUrl}  (port ${settings.port})`,
    ...(settings.publicUrl === ownUrl ? [] : [`  public URL          ${settings.publicUrl}`]),
    ...(cliUrl === undefined || cliUrl === settings.publicUrl
      ? []
      : [`  admin CLI           reads PORT and PUBLIC_URL from .env, so its links name ${cliUrl}: set them in .env to name ${settings.publicUrl}`]),
    `  database            ${databaseLabel(settings.databaseUrl)}`,
    `  Redis               ${settings.redisUrl ? redisLabel(settings.redisUrl) : "not used: rate limits are counted per instance"}`,
    "",
  ].join("\n");
}

/** The one line start-up ends with. */
export function startupFailure(error: unknown): string {
  if (error instanceof Error && error.name === "StartupError") return error.message;
  return `Gatehouse could not start: ${reason(error)}`;
}
