import { describe, expect, it } from "vitest";
import { createOpenConnections } from "./open-connections";

describe("open WebSocket connections", () => {
  it("gives each client of an environment at most `max` places, handshakes under way included, and takes a place back once", async () => {
    const connections = createOpenConnections();
    const first = await connections.reserve("env_1", "client_a", 2);
    const second = await connections.reserve("env_1", "client_a", 2);
    expect(first && second).toBeTruthy();
    expect(await connections.reserve("env_1", "client_a", 2)).toBeUndefined();
    expect(await connections.reserve("env_1", "client_b", 2)).toBeTruthy();
    expect(await connections.reserve("env_2", "client_a", 2)).toBeTruthy();
    first!();
    first!();
    expect(await connections.reserve("env_1", "client_a", 2)).toBeTruthy();
    expect(await connections.reserve("env_1", "client_a", 2)).toBeUndefined();
  });

  it("closes every connection it holds, and none it was told are gone", () => {
    const connections = createOpenConnections();
    const closed: string[] = [];
    const open = (name: string) => ({ envId: "env_1", apiId: "api_1", caller: null, close: (code: number) => closed.push(`${name} ${code}`) });
    const kept = open("kept");
    const gone = open("gone");
    connections.add(kept);
    connections.add(gone);
    connections.delete(gone);
    connections.closeAll(1001, "server shutting down");
    expect(closed).toEqual(["kept 1001"]);
  });
});
