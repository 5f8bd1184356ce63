import * as types from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { invalidParamsError } from "./invalid-params";

const request = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: "r-1", method, params });

describe("an MCP request's params, checked before the SDK reads them", () => {
  it("answers -32602 with the request's id, naming each field that is wrong", () => {
    expect(invalidParamsError(types, request("tools/call", { arguments: [] }))).toEqual({
      jsonrpc: "2.0",
      id: "r-1",
      error: {
        code: -32602,
        message: expect.stringMatching(/^Invalid params for tools\/call: params\.name: .*; params\.arguments: /),
      },
    });
  });

  it("names at most five issues of a request", () => {
    const clientInfo = { title: 1, icons: 2, websiteUrl: 3 };
    const message = invalidParamsError(types, request("initialize", { clientInfo }))?.error.message ?? "";
    expect(message.split("; ")).toHaveLength(5);
    expect(message).toContain("params.protocolVersion");
  });

  it("leaves the SDK what is not a request of a method it parses: valid params, notifications, other methods, batches", () => {
    expect(invalidParamsError(types, request("tools/call", { name: "getOrder", arguments: { id: "1" } }))).toBeUndefined();
    expect(invalidParamsError(types, request("tools/list", undefined))).toBeUndefined();
    expect(invalidParamsError(types, { jsonrpc: "2.0", method: "notifications/initialized", params: 5 })).toBeUndefined();
    expect(invalidParamsError(types, request("resources/list", { cursor: 5 }))).toBeUndefined();
    expect(invalidParamsError(types, [request("tools/call", {})])).toBeUndefined();
    expect(invalidParamsError(types, undefined)).toBeUndefined();
  });
});
