import type * as McpTypes from "@modelcontextprotocol/sdk/types.js";
import type { ZodType } from "zod";

type Types = typeof McpTypes;

/** At most this many of a refused request's issues are named in its error's message. */
const MAX_NAMED_ISSUES = 5;

/**
 * The JSON-RPC error for a request whose params its method's schema refuses, or undefined
 * when the message is not such a request. The SDK (1.32) parses a request's params before
 * the method's handler runs and answers a failure -32603 Internal error, its message zod's
 * issues as JSON (modelcontextprotocol/typescript-sdk#2284); JSON-RPC 2.0 answers a caller's
 * malformed params -32602 Invalid params, so they are checked, with the SDK's own schemas,
 * before the SDK reads the request. A batch is left to the SDK.
 */
export function invalidParamsError(types: Types, message: unknown): McpTypes.JSONRPCErrorResponse | undefined {
  if (!types.isJSONRPCRequest(message)) return undefined;
  const schema = requestSchemas(types).get(message.method);
  const parsed = schema?.safeParse(message);
  if (!parsed || parsed.success) return undefined;
  const issues = parsed.error.issues.slice(0, MAX_NAMED_ISSUES).map(({ path, message }) => `${path.map(String).join(".")}: ${message}`);
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: { code: types.ErrorCode.InvalidParams, message: `Invalid params for ${message.method}: ${issues.join("; ")}` },
  };
}

/** The methods an MCP server of the gateway answers, by the schema the SDK parses each with. */
function requestSchemas(types: Types): Map<string, ZodType> {
  return new Map<string, ZodType>([
    ["initialize", types.InitializeRequestSchema],
    ["ping", types.PingRequestSchema],
    ["tools/list", types.ListToolsRequestSchema],
    ["tools/call", types.CallToolRequestSchema],
  ]);
}
