import { describe, expect, it } from "vitest";
import { createMcpSessions, MCP_SESSION_SECONDS } from "./sessions";

const RESOURCE = "https://portal.example/mcp/prod/orders";

describe("MCP sessions", () => {
  it("are valid for the server and client they were issued to, on any instance sharing AUTH_SECRET, until they expire", () => {
    let now = Date.parse("2026-11-29T06:00:00Z");
    const sessions = createMcpSessions("a-secret-of-at-least-32-characters!!", () => now);
    const id = sessions.issue(RESOURCE, "gci_a");
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(createMcpSessions("a-secret-of-at-least-32-characters!!", () => now).valid(id, RESOURCE, "gci_a")).toBe(true);
    expect(sessions.valid(id, RESOURCE, "gci_b")).toBe(false);
    expect(sessions.valid(id, `${RESOURCE}/v2`, "gci_a")).toBe(false);
    expect(createMcpSessions("another-secret-of-at-least-32-chars!!", () => now).valid(id, RESOURCE, "gci_a")).toBe(false);
    expect(sessions.valid(`${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`, RESOURCE, "gci_a")).toBe(false);
    expect(sessions.valid(`zz${id}`, RESOURCE, "gci_a")).toBe(false);
    expect(sessions.valid("not a session", RESOURCE, "gci_a")).toBe(false);
    now += (MCP_SESSION_SECONDS + 1) * 1000;
    expect(sessions.valid(id, RESOURCE, "gci_a")).toBe(false);
  });
});
