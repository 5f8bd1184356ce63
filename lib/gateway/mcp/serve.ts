import "server-only";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Logger } from "pino";
import type { DataPlaneStore } from "../../data-plane/store";
import { canonicalPath } from "../../http/canonical-path";
import { readWholeBody } from "../../http/json-body";
import { type IncomingRequest, jsonPlainResponse, type PlainResponse } from "../../http/message";
import { problem, problemPlainResponse, type ProblemError, toProblem } from "../../http/problem";
import { requestIdFrom } from "../../http/request-id";
import { notificationsDocument } from "../../notifications/openapi";
import { issuerFor } from "../../oauth/issuer";
import type { GatewayApi, GatewayDirectory, GatewayEnvironment } from "../directory";
import type { Gateway } from "../handler";
import type { Authenticator } from "../policies/authentication/stage";
import type { GatewayVersion } from "../versions";
import { callTool, toolRequest } from "./call-tool";
import { invalidParamsError } from "./invalid-params";
import type { McpSessions } from "./sessions";
import { deriveTools, type McpTool } from "./tools";

/** `/mcp/{env}/{api}` and `/mcp/{env}/{api}/{version}`, and their RFC 9728 metadata under `/.well-known/oauth-protected-resource`. */
export const MCP_PATH = /^\/(mcp\/|\.well-known\/oauth-protected-resource\/mcp\/)/;
const ENDPOINT = /^\/mcp\/([^/]+)\/([^/]+)(?:\/([^/]+))?\/?$/;
const METADATA_PREFIX = "/.well-known/oauth-protected-resource";
/** A page of `tools/list`: a large document (Stripe's has 452 operations) is listed in pages. */
export const TOOLS_PAGE_SIZE = 100;
/** An answer this short may be `initialize`'s, which starts a session; a longer one is not read for it. */
const MAX_INITIALIZE_ANSWER_BYTES = 4096;
/** Of an MCP request's JSON-RPC body: a tool's arguments included, it is a gateway request's body at most. */
const MAX_MCP_BODY_BYTES = 1024 * 1024;
/** Derived tool lists kept, by version and settings: a handful of APIs are served by MCP at once. */
const MAX_KEPT_TOOL_LISTS = 200;

export type McpServiceDeps = {
  directory: GatewayDirectory;
  documents: Pick<DataPlaneStore, "openapiDocuments">;
  authenticate: Authenticator;
  /** the gateway every tool call goes through */
  gateway: Gateway;
  sessions: McpSessions;
  publicUrl: string;
  /** the origins a browser's request may come from: the portal's and, when it has its own, the gateway's */
  origins: readonly string[];
  log: Pick<Logger, "warn" | "error">;
};

export type McpService = (request: IncomingRequest) => Promise<PlainResponse>;

type Served = { env: GatewayEnvironment; api: GatewayApi; version: GatewayVersion; resource: string };

const notFound = (detail: string) => problem("not-found", { detail });

type Sdk = {
  Server: typeof import("@modelcontextprotocol/sdk/server/index.js").Server;
  Transport: typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js").WebStandardStreamableHTTPServerTransport;
  types: typeof import("@modelcontextprotocol/sdk/types.js");
};
let sdk: Promise<Sdk> | undefined;

/**
 * The MCP SDK, imported by the first MCP request rather than as the gateway starts: its
 * modules cost a process about 70 ms of CPU to load (docs/benchmarks.md, "Test suite time"),
 * which a server that serves no MCP request need not spend.
 */
function mcpSdk(): Promise<Sdk> {
  sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([server, transport, types]) => ({ Server: server.Server, Transport: transport.WebStandardStreamableHTTPServerTransport, types }));
  return sdk;
}

/**
 * Each API's MCP server: `/mcp/{env}/{api}` serves the current version's operations as tools,
 * `/mcp/{env}/{api}/{version}` a given version's, over MCP's Streamable HTTP transport
 * (the SDK's, stateless: decision 066, with signed sessions: decision 069); `/.well-known/oauth-protected-resource/mcp/...`
 * describes each as an OAuth protected resource (RFC 9728).
 */
export function createMcpService(deps: McpServiceDeps): McpService {
  const { publicUrl } = deps;
  const toolLists = new Map<string, McpTool[]>();

  /** The environment, API and version a path names, when the API serves MCP there. */
  async function served(path: string): Promise<Served> {
    const match = ENDPOINT.exec(path);
    if (!match) throw notFound("An MCP server's URL is /mcp/{env}/{api} or /mcp/{env}/{api}/{version}.");
    const [, envSlug = "", apiSlug = "", segment] = match;
    const env = await deps.directory.environment(envSlug);
    const api = env && (await deps.directory.api(env.id, apiSlug));
    if (!env || !api?.mcp.enabled || api.kind === "TOKEN") throw notFound(`No MCP server is served at ${path}.`);
    const version = segment === undefined ? api.versions.current : api.versions.bySegment.get(segment);
    if (!version)
      throw notFound(segment === undefined ? `The API "${api.slug}" has no current version.` : `The API "${api.slug}" has no version "${segment}".`);
    return { env, api, version, resource: `${publicUrl}/mcp/${env.slug}/${api.slug}${segment === undefined ? "" : `/${segment}`}` };
  }

  async function documentOf({ env, api, version }: Served): Promise<Record<string, unknown> | undefined> {
    if (api.kind === "NOTIFICATIONS") return notificationsDocument({ gatewayUrl: issuerFor(publicUrl, env.slug) });
    const [row] = await deps.documents.openapiDocuments([version.id]);
    if (!row) return undefined;
    try {
      const parsed: unknown = JSON.parse(row.document);
      return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The tools of a version, derived once for its document and settings (the API's configuration digest changes with its documents). */
  async function toolsOf(at: Served): Promise<McpTool[]> {
    const key = JSON.stringify([at.api.id, at.version.id, at.api.configuration, at.api.mcp, at.version.deprecation, [...at.version.operations]]);
    const kept = toolLists.get(key);
    if (kept) return kept;
    const document = await documentOf(at);
    const tools = document ? deriveTools(document, at.api.mcp, at.version) : [];
    if (toolLists.size >= MAX_KEPT_TOOL_LISTS) toolLists.delete(toolLists.keys().next().value!);
    toolLists.set(key, tools);
    return tools;
  }

  /** The caller, unless the API is public; a refusal's challenge names the resource's metadata (RFC 9728 §5.1). */
  async function admitted(request: IncomingRequest, at: Served): Promise<string | undefined> {
    if (at.api.kind === "PROXY" && at.api.isPublic) return undefined;
    const verdict = await deps.authenticate(request, at.env, undefined, at.resource);
    if ("refusal" in verdict) throw withResourceMetadata(verdict.refusal, at);
    if (!verdict.caller.credential.grants.has(at.api.id)) {
      throw problem("api-not-granted", {
        detail: `The client ${verdict.clientId} has no access to the API "${at.api.slug}" in "${at.env.slug}"; request access in the portal.`,
        extensions: { api: at.api.slug },
      });
    }
    return verdict.clientId;
  }

  function withResourceMetadata(refusal: ProblemError, at: Served): ProblemError {
    if (refusal.status !== 401) return refusal;
    const metadata = `${publicUrl}${METADATA_PREFIX}${new URL(at.resource).pathname}`;
    const challenge = refusal.headers?.["www-authenticate"] ?? "Bearer";
    return problem(refusal.code, {
      detail: refusal.detail,
      errors: refusal.errors,
      extensions: refusal.extensions,
      headers: { ...refusal.headers, "www-authenticate": `${challenge}, resource_metadata="${metadata}"` },
    });
  }

  function protectedResourceMetadata(at: Served): PlainResponse {
    return jsonPlainResponse(
      200,
      {
        resource: at.resource,
        authorization_servers: [issuerFor(publicUrl, at.env.slug)],
        scopes_supported: at.api.scopes,
        bearer_methods_supported: ["header"],
        resource_name: at.api.slug,
        resource_documentation: `${publicUrl}/apis/${at.api.slug}`,
      },
      { "cache-control": "public, max-age=60" },
    );
  }

  /** An SDK server for one request (stateless: any instance answers any request), whose tool calls are gateway calls. */
  function mcpServer({ Server, types }: Sdk, at: Served, request: IncomingRequest): Server {
    const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } = types;
    const server = new Server({ name: `gatehouse-${at.api.slug}`, version: at.version.version }, { capabilities: { tools: { listChanged: false } } });
    server.setRequestHandler(ListToolsRequestSchema, async ({ params }) => {
      const tools = await toolsOf(at);
      const start = params?.cursor === undefined ? 0 : Number(params.cursor);
      if (!Number.isSafeInteger(start) || start < 0 || start > tools.length) throw new McpError(ErrorCode.InvalidParams, "Unknown cursor");
      const page = tools.slice(start, start + TOOLS_PAGE_SIZE);
      const next = start + TOOLS_PAGE_SIZE < tools.length ? String(start + TOOLS_PAGE_SIZE) : undefined;
      return {
        tools: page.map(({ name, title, description, inputSchema, annotations }) => ({
          name,
          ...(title ? { title } : {}),
          description,
          inputSchema,
          annotations,
        })),
        ...(next === undefined ? {} : { nextCursor: next }),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      const tool = (await toolsOf(at)).find((each) => each.name === params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      const origin = new URL(request.url).origin;
      return callTool(
        deps.gateway,
        toolRequest({ tool, args: params.arguments ?? {}, origin, env: at.env.slug, api: at.api.slug, resource: at.resource, mcpRequest: request }),
      );
    });
    return server;
  }

  /** MCP's transport (2025-11-25, "Security Warning"): an Origin present and not the server's own is refused 403, against DNS rebinding. */
  function refuseForeignOrigin(request: IncomingRequest): void {
    const origin = request.headers.get("origin");
    if (origin === null || deps.origins.includes(origin)) return;
    throw problem("mcp-origin-not-allowed", {
      detail: `Requests from the origin ${origin.slice(0, 200)} are refused; this MCP server answers ${deps.origins.join(" and ")}.`,
    });
  }

  async function serveEndpoint(request: IncomingRequest, at: Served): Promise<PlainResponse> {
    if (request.method !== "POST") {
      // No stream of the server's own messages to open (GET); a session ends when it expires, not on DELETE (decision 069).
      throw problem("method-not-allowed", {
        detail: "This MCP server answers POST; it sends no messages of its own, and its sessions end by themselves.",
        headers: { allow: "POST" },
      });
    }
    const clientId = await admitted(request, at);
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null && !deps.sessions.valid(sessionId, at.resource, clientId ?? "")) {
      // The transport's answer to a session it does not know: the client initializes again.
      throw problem("not-found", { detail: "This MCP session is unknown or has ended: send initialize again, without Mcp-Session-Id." });
    }
    const body = await readWholeBody(request, MAX_MCP_BODY_BYTES);
    const loaded = await mcpSdk();
    const invalid = invalidParamsError(loaded.types, parsedJson(body));
    if (invalid) return jsonPlainResponse(200, invalid);
    const server = mcpServer(loaded, at, request);
    const transport = new loaded.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const token = request.headers.get("authorization")?.replace(/^Bearer +/i, "") ?? "";
      const response = await plainResponse(
        await transport.handleRequest(fetchRequest(request, body), { authInfo: { token, clientId: clientId ?? "", scopes: [] } }),
      );
      if (sessionId === null && initialized(response)) response.headers["mcp-session-id"] = deps.sessions.issue(at.resource, clientId ?? "");
      return response;
    } finally {
      await server.close();
    }
  }

  return async (request) => {
    const url = new URL(request.url);
    const requestId = requestIdFrom(request.headers);
    let path = url.pathname;
    try {
      // Before anything else, the path's spelling included: only the protected-resource metadata is for any origin.
      if (!url.pathname.startsWith(`${METADATA_PREFIX}/`)) refuseForeignOrigin(request);
      path = canonicalPath(url.pathname);
      const metadata = path.startsWith(`${METADATA_PREFIX}/`);
      const at = await served(metadata ? path.slice(METADATA_PREFIX.length) : path);
      const response = metadata ? protectedResourceMetadata(at) : await serveEndpoint(request, at);
      response.headers["x-request-id"] = requestId;
      return response;
    } catch (error) {
      const refusal = toProblem(error);
      if (refusal.code === "internal-error") deps.log.error({ err: error }, "MCP request failed");
      return problemPlainResponse(refusal, { instance: path, requestId });
    }
  };
}

/** Whether an answer is `initialize`'s: a JSON-RPC result naming the server, which starts a session. */
function initialized(response: PlainResponse): boolean {
  if (response.status !== 200 || !(response.body instanceof Uint8Array) || response.body.byteLength > MAX_INITIALIZE_ANSWER_BYTES) return false;
  try {
    const message = JSON.parse(Buffer.from(response.body).toString("utf8")) as { result?: { serverInfo?: unknown; protocolVersion?: unknown } };
    return typeof message.result?.protocolVersion === "string" && message.result.serverInfo !== undefined;
  } catch {
    return false;
  }
}

/** The body as JSON, or undefined when it is not: the transport answers that with JSON-RPC's parse error. */
function parsedJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The Fetch request the SDK's transport reads, with the body already read. */
function fetchRequest(request: IncomingRequest, body: Buffer): Request {
  const headers = new Headers();
  request.headers.forEach((value, name) => headers.append(name, value));
  return new Request(request.url, { method: request.method, headers, body: new Uint8Array(body) });
}

/** The transport's answer (JSON, as the transport is told to answer) as a plain response. */
async function plainResponse(response: Response): Promise<PlainResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = response.body === null ? null : new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers, body };
}
