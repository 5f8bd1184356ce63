import pino from "pino";

/**
 * A logger for access lines: one per request, with fields the server sets
 * (request id, method, route, status, latency, client), never copied from a
 * request, so it skips redaction, which costs three times the rest of the
 * line. Lines are often written after their request, so each carries its
 * request's time as its first field, `time`, where `log` puts the time it writes.
 * It reads no configuration: the request log's worker thread, which writes these
 * lines, is handed the level and loads neither the configuration nor zod.
 */
export function createAccessLog(destination: pino.DestinationStream, level: string): pino.Logger {
  return pino({ level, base: undefined, timestamp: false }, destination);
}
