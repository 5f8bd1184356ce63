import pino from "pino";
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

/**
 * A logger for access lines: one per request, with fields the server sets
 * (request id, method, route, status, latency, client), never copied from a
 * request, so it skips redaction, which costs three times the rest of the
 * line. Lines are often written after their request, so each carries its
 * request's time as its first field, `time`, where `log` puts the time it writes.
 */
export function createAccessLog(destination: pino.DestinationStream): pino.Logger {
  return pino({ level: config().logLevel, base: undefined, timestamp: false }, destination);
}

export const accessLog: pino.Logger = (globalForLog.gatehouseAccessLog ??= createAccessLog(stdout));
