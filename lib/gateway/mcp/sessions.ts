import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "../../oauth/derived-keys";

/** How long a session is honoured; past it the client is answered 404 and initializes again, as the transport specifies. */
export const MCP_SESSION_SECONDS = 24 * 60 * 60;
/** A session issued this far in the future still counts: instances' clocks differ a little. */
const CLOCK_SKEW_SECONDS = 60;
const SESSION_ID = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

export type McpSessions = {
  /** a new session of `clientId` (empty for a public API) at the MCP server `resource` */
  issue(resource: string, clientId: string): string;
  /** whether `id` is a live session this deployment issued to `clientId` at `resource` */
  valid(id: string, resource: string, clientId: string): boolean;
};

/**
 * MCP session ids (`Mcp-Session-Id`) that every process of every instance checks with nothing
 * stored (decision 069): the issue time, and a MAC over it, the MCP server's URL and the client,
 * with a key derived from AUTH_SECRET. A session carries no state of its own: each request is
 * served as a stateless one (decision 066).
 */
export function createMcpSessions(authSecret: string, now: () => number = Date.now): McpSessions {
  const key = deriveKey(authSecret, "mcp-session");
  const mac = (issued: string, resource: string, clientId: string) =>
    createHmac("sha256", key).update(`${issued}\n${resource}\n${clientId}`).digest("base64url");
  return {
    issue(resource, clientId) {
      const issued = Math.floor(now() / 1000).toString(36);
      return `${issued}.${mac(issued, resource, clientId)}`;
    },
    valid(id, resource, clientId) {
      const match = SESSION_ID.exec(id);
      if (!match) return false;
      const [, issued = "", presented = ""] = match;
      const age = now() / 1000 - Number.parseInt(issued, 36);
      if (!(age >= -CLOCK_SKEW_SECONDS && age <= MCP_SESSION_SECONDS)) return false;
      const expected = Buffer.from(mac(issued, resource, clientId));
      const actual = Buffer.from(presented);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
  };
}
