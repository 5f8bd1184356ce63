import "server-only";
import { z } from "zod";
import type { DbClient } from "../db";
import { type AgentClientDocuments, agentRowIdOf, isClientDocumentUrl } from "../oauth/agent-client-documents";
import { AGENT_REGISTRATION_LIFETIME_MS } from "../oauth/agent-grants";
import { isRegisteredRedirectUri } from "../oauth/agent-redirect-uris";
import { MAX_AGENT_ID_LENGTH, MAX_CLIENT_NAME_LENGTH } from "../oauth/agent-schemas";

const MAX_PARAMETER_LENGTH = 2000;

/** The authorization request's query (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2.1); each field once. */
export const authorizationQuerySchema = z.object({
  client_id: z.string().min(1).max(MAX_AGENT_ID_LENGTH),
  redirect_uri: z.string().min(1).max(MAX_PARAMETER_LENGTH),
  response_type: z.string().max(100).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  resource: z.string().max(MAX_PARAMETER_LENGTH).optional(),
  scope: z.string().max(MAX_PARAMETER_LENGTH).optional(),
  state: z.string().max(MAX_PARAMETER_LENGTH).optional(),
});

/** What the developer is asked to consent to, once every check passed. */
export type AgentAuthorization = {
  /** the stored agent's id; for a client ID metadata document, derived from its URL and the environment */
  agentId: string;
  agentName: string;
  /** the host of the agent's client ID metadata document, shown beside its name; absent for a registered agent */
  agentHost?: string;
  environmentId: string;
  envSlug: string;
  apiId: string;
  apiName: string;
  resource: string;
  scopes: string[];
  redirectUri: string;
  codeChallenge: string;
  state?: string;
};

/**
 * The outcome of reading an authorization request: shown on the page (the client or its
 * redirect URI cannot be trusted, so nothing is sent there, RFC 6749 §4.1.2.1), sent back
 * to the agent as an error, or asked of the developer.
 */
export type AuthorizationOutcome =
  | { kind: "refused"; detail: string }
  | { kind: "error"; redirect: string }
  | { kind: "consent"; authorization: AgentAuthorization };

/** The agent's redirect URI with the answer's parameters, and the issuer (RFC 9207). */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>, issuer: string): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...parameters, iss: issuer })) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** The API an MCP server URL of this environment names, when it serves MCP there. */
async function mcpApiOf(db: DbClient, publicUrl: string, envSlug: string, environmentId: string, resource: string) {
  const prefix = `${publicUrl}/mcp/${envSlug}/`;
  if (!resource.startsWith(prefix)) return undefined;
  const [slug, version, ...rest] = resource.slice(prefix.length).split("/");
  if (!slug || rest.length > 0 || version === "") return undefined;
  const api = await db.api.findFirst({
    where: { slug, kind: { not: "TOKEN" }, environments: { some: { environmentId } } },
    select: { id: true, name: true, mcp: true, scopes: { select: { name: true }, orderBy: { name: "asc" } }, versions: { select: { version: true } } },
  });
  // The stored settings were validated when set (lib/gateway/mcp/settings.ts); only `enabled` matters here.
  if (!api || (api.mcp as { enabled?: unknown } | null)?.enabled !== true) return undefined;
  if (version !== undefined && !api.versions.some((each) => each.version === version)) return undefined;
  return api;
}

type Client = { agentId: string; name: string; host?: string; redirectUris: string[] };

/** The agent a client_id names: a registration of this environment unused for less than 30 days, or a client ID metadata document. */
async function clientOf(
  db: DbClient,
  clientId: string,
  environmentId: string,
  documents: { fetch: AgentClientDocuments; allowPrivate: boolean },
): Promise<Client | string> {
  if (isClientDocumentUrl(clientId, documents.allowPrivate)) {
    const document = await documents.fetch(clientId);
    if (!document.ok) return document.detail;
    return { agentId: agentRowIdOf(clientId, environmentId), name: document.name, host: document.host, redirectUris: document.redirectUris };
  }
  if (URL.canParse(clientId)) return "A client_id that is a URL must be the https URL, with a path, of the agent's client ID metadata document.";
  const agent = await db.agentClient.findFirst({
    where: { id: clientId, environmentId, lastUsedAt: { gt: new Date(Date.now() - AGENT_REGISTRATION_LIFETIME_MS) } },
  });
  if (!agent) return "No agent is registered with this client_id in this environment.";
  return { agentId: agent.id, name: agent.name, redirectUris: JSON.parse(agent.redirectUris) as string[] };
}

/**
 * Checks an agent's authorization request against its registration and this environment:
 * the authorization code grant only, PKCE with S256 only, a `resource` that is one of the
 * environment's MCP servers, and scopes of its API (all of them when none are asked for).
 */
export async function readAuthorizationRequest(input: {
  db: DbClient;
  publicUrl: string;
  issuer: string;
  envSlug: string;
  query: Record<string, string | string[] | undefined>;
  clientDocuments: { fetch: AgentClientDocuments; allowPrivate: boolean };
}): Promise<AuthorizationOutcome> {
  const { db, publicUrl, envSlug } = input;
  if (Object.values(input.query).some(Array.isArray)) return { kind: "refused", detail: "A parameter of the authorization request is repeated." };
  const parsed = authorizationQuerySchema.safeParse(input.query);
  if (!parsed.success) return { kind: "refused", detail: "The authorization request lacks a valid client_id or redirect_uri." };
  const query = parsed.data;
  const environment = await db.environment.findUnique({ where: { slug: envSlug }, select: { id: true } });
  if (!environment) return { kind: "refused", detail: "No agent is registered with this client_id in this environment." };
  const agent = await clientOf(db, query.client_id, environment.id, input.clientDocuments);
  if (typeof agent === "string") return { kind: "refused", detail: agent };
  if (!isRegisteredRedirectUri(query.redirect_uri, agent.redirectUris)) {
    return { kind: "refused", detail: "The redirect_uri is not one the agent registered." };
  }
  const error = (code: string, description: string): AuthorizationOutcome => ({
    kind: "error",
    redirect: redirectWith(query.redirect_uri, { error: code, error_description: description, state: query.state }, input.issuer),
  });
  if (query.response_type !== "code") return error("unsupported_response_type", "Only response_type=code is supported.");
  if (!query.code_challenge) return error("invalid_request", "PKCE is required: send code_challenge and code_challenge_method=S256.");
  if (query.code_challenge_method !== "S256") return error("invalid_request", "Only the S256 code_challenge_method is supported.");
  if (!/^[A-Za-z0-9_-]{43}$/.test(query.code_challenge)) return error("invalid_request", "The code_challenge must be a base64url SHA-256 digest.");
  if (!query.resource) return error("invalid_target", "Send resource: the URL of the MCP server the token is for (RFC 8707).");
  const api = await mcpApiOf(db, publicUrl, envSlug, environment.id, query.resource);
  if (!api) return error("invalid_target", "The resource is not an MCP server of this environment.");
  const offered = api.scopes.map((scope) => scope.name);
  const asked = query.scope ? [...new Set(query.scope.split(" ").filter(Boolean))] : offered;
  const unknown = asked.filter((scope) => !offered.includes(scope));
  if (unknown.length > 0) return error("invalid_scope", `The API offers no scope ${unknown.map((scope) => `"${scope.slice(0, 100)}"`).join(", ")}.`);
  return {
    kind: "consent",
    authorization: {
      agentId: agent.agentId,
      agentName: agent.name.slice(0, MAX_CLIENT_NAME_LENGTH),
      ...(agent.host ? { agentHost: agent.host } : {}),
      environmentId: environment.id,
      envSlug,
      apiId: api.id,
      apiName: api.name,
      resource: query.resource,
      scopes: asked,
      redirectUri: query.redirect_uri,
      codeChallenge: query.code_challenge,
      state: query.state,
    },
  };
}
