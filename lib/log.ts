import pino from "pino";
import { createAccessLog } from "./access-log";
import { config } from "./config";

/** Paths pino censors wherever they appear in a log line. */
export const REDACTED_PATHS = [
  "authorization",
  "cookie",
  "password",
  "client_secret",
  "clientSecret",
  "access_token",
  "*.authorization",
  "*.cookie",
  "*.password",
  "*.client_secret",
  "*.clientSecret",
  "*.access_token",
  "*.headers.authorization",
  '*.headers["x-api-key"]',
  "*.headers.cookie",
  '*.headers["set-cookie"]',
];

export function createLogger(options: { level?: string; destination: pino.DestinationStream }) {
  return pino(
    {
      level: options.level ?? config().logLevel,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}

const globalForLog = globalThis as unknown as { gatehouseStdout?: pino.DestinationStream; gatehouseLog?: pino.Logger; gatehouseAccessLog?: pino.Logger };

// Asynchronous writes keep log lines off the request path. `log` and `accessLog` share
// the stream, so that their lines never interleave.
const stdout = (globalForLog.gatehouseStdout ??= pino.destination({ dest: 1, sync: false }));

export const log: pino.Logger = (globalForLog.gatehouseLog ??= createLogger({ destination: stdout }));

export const accessLog: pino.Logger = (globalForLog.gatehouseAccessLog ??= createAccessLog(stdout, config().logLevel));
