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
  "*.headers[\"set-cookie\"]",
];

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}) {
  return pino(
    {
      level: options.level ?? config().logLevel,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    // Asynchronous writes keep a log line per request off the request path.
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

const globalForLog = globalThis as unknown as { gatehouseLog?: pino.Logger };

export const log: pino.Logger = (globalForLog.gatehouseLog ??= createLogger());

/**
 * The one line per request. Its fields (request id, method, route, status,
 * latency, client id) are set by the server, never copied from a request, so
 * it skips redaction, which costs three times the rest of the line.
 */
export const accessLog: pino.Logger = log.child({}, { redact: [] });
