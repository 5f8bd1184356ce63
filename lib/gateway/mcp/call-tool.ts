import "server-only";
import { PassThrough } from "node:stream";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { IncomingRequest, PlainResponse } from "../../http/message";
import type { Gateway } from "../handler";
import type { McpTool } from "./tools";

/** What a tool's answer carries at most: an agent reads it whole, and a larger one is cut with a note. */
export const MAX_RESULT_BYTES = 1024 * 1024;

/** The headers of the MCP request that the tool's call carries on: who calls, and through which proxies. */
const CARRIED = ["authorization", "dpop", "x-forwarded-for", "x-forwarded-proto", "forwarded", "traceparent", "tracestate"] as const;

const TEXT = /^(text\/|application\/([\w.+-]+\+)?(json|xml)\b|application\/x-www-form-urlencoded)/i;

/** A value as JSON text, or undefined when it nests deeper than JSON.stringify's stack reaches: an agent's arguments are read without recursion, so they may. */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** An argument's value as the text of a path segment, query or header value: objects as JSON. */
function asText(value: unknown): string | undefined {
  return typeof value === "string" ? value : typeof value === "object" && value !== null ? jsonText(value) : String(value);
}

const nestedTooDeep = (property: string) => `The argument "${property}" is nested too deeply to send as JSON.`;

/** The gateway request a tool call stands for, or the sentence saying which argument it lacks. */
export function toolRequest(input: {
  tool: McpTool;
  args: Record<string, unknown>;
  origin: string;
  env: string;
  api: string;
  /** the MCP server called, where an agent's token is accepted */
  resource: string;
  mcpRequest: IncomingRequest;
}): IncomingRequest | string {
  const { tool, args, mcpRequest } = input;
  let path = tool.path;
  const query = new URLSearchParams();
  const headers = new Headers();
  for (const argument of tool.arguments) {
    const value = args[argument.property];
    if (value === undefined || value === null) {
      if (argument.in === "path") return `The argument "${argument.property}" is required.`;
      continue;
    }
    const texts = (argument.in === "query" && Array.isArray(value) ? value : [value]).map(asText);
    if (texts.some((text) => text === undefined)) return nestedTooDeep(argument.property);
    const [text = ""] = texts as string[];
    if (argument.in === "path") path = path.replaceAll(`{${argument.name}}`, encodeURIComponent(text));
    else if (argument.in === "query") for (const each of texts as string[]) query.append(argument.name, each);
    else headers.set(argument.name, text);
  }
  for (const name of CARRIED) {
    const value = mcpRequest.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const body = tool.body === undefined || args[tool.body] === undefined ? null : jsonText(args[tool.body]);
  if (body === undefined) return nestedTooDeep(tool.body!);
  headers.set("accept", "application/json, application/problem+json;q=0.9, */*;q=0.5");
  if (body !== null) headers.set("content-type", "application/json");
  const search = query.size > 0 ? `?${query}` : "";
  const url = `${input.origin}/gw/${input.env}/${input.api}${path}${search}`;
  const bytes = body === null ? null : new TextEncoder().encode(body);
  return {
    method: tool.method,
    url,
    headers,
    body: bytes === null ? null : new Blob([bytes]).stream(),
    bodyChunks: () => (bytes === null ? null : toAsync(bytes)),
    remoteAddress: mcpRequest.remoteAddress,
    mcpResource: input.resource,
  };
}

async function* toAsync(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/** The answer's body, up to `MAX_RESULT_BYTES`, and whether more was cut. */
async function bodyOf(response: PlainResponse): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const { body } = response;
  if (body === null) return { bytes: new Uint8Array(), cut: false };
  if (typeof body === "string") return { bytes: new TextEncoder().encode(body), cut: false };
  if (body instanceof Uint8Array) return { bytes: body, cut: false };
  const stream = new PassThrough();
  body.pipeTo(stream);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_RESULT_BYTES) {
      stream.destroy();
      return { bytes: Buffer.concat(chunks).subarray(0, MAX_RESULT_BYTES), cut: true };
    }
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

/**
 * Calls the tool through the gateway, as the gateway call it stands for: every stage of the
 * pipeline (authentication, authorization, rate limit, validation, the upstream) and the
 * record (request log, metrics, trace) apply. Its result is the answer's body as text; a 4xx
 * or 5xx answer sets `isError` and its text is the problem.
 */
export async function callTool(gateway: Gateway, request: IncomingRequest | string): Promise<CallToolResult> {
  if (typeof request === "string") return { isError: true, content: [{ type: "text", text: request }] };
  const response = await gateway(request);
  const { bytes, cut } = await bodyOf(response);
  const type = String(response.headers["content-type"] ?? "");
  const isError = response.status >= 400;
  const text =
    bytes.length === 0
      ? `HTTP ${response.status}, no body.`
      : TEXT.test(type) || type === ""
        ? Buffer.from(bytes).toString("utf8")
        : `HTTP ${response.status}, a ${type} body of ${bytes.length} bytes, which this tool does not show.`;
  return {
    ...(isError ? { isError } : {}),
    content: [{ type: "text", text: cut ? `${text}\n[cut at ${MAX_RESULT_BYTES} bytes]` : text }],
    _meta: { "gatehouse/status": response.status, "gatehouse/requestId": String(response.headers["x-request-id"] ?? "") },
  };
}
