/** RFC 9110 §7.6.1: fields that describe one connection, never forwarded by an intermediary. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

const NO_OPTIONS: ReadonlySet<string> = new Set();

/** The field names a Connection header lists, which are connection-specific too. */
export function connectionOptions(connection: string | null | undefined): ReadonlySet<string> {
  if (!connection) return NO_OPTIONS;
  // Nearly every message says just this, which names no field beyond the hop-by-hop ones.
  if (connection === "keep-alive") return NO_OPTIONS;
  return new Set(
    (connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** Whether a field belongs to one connection only: hop-by-hop, or named in that message's Connection header (`listed`). */
export function isConnectionSpecific(name: string, listed: ReadonlySet<string>): boolean {
  return HOP_BY_HOP.has(name) || listed.has(name);
}
