/** RFC 9110 §7.6.1: fields that describe one connection, never forwarded by an intermediary. */
export const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]);

/** The field names a Connection header lists, which are connection-specific too. */
export function connectionOptions(connection: string | null | undefined): Set<string> {
  return new Set(
    (connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}
