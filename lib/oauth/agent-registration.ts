import "server-only";
import type { AgentStore } from "../data-plane/agent-store";
import type { EnvironmentRow } from "../data-plane/store";
import type { IncomingRequest, PlainResponse } from "../http/message";
import { readBody } from "../http/read-body";
import { newId } from "../ids";
import type { FailureCounter } from "../limiters/rate-limit";
import { AGENT_GRANT_TYPES, AGENT_REGISTRATION_LIFETIME_MS } from "./agent-grants";
import { agentRegistrationSchema } from "./agent-schemas";
import { OAuthError, oauthJson } from "./oauth-error";
import { MAX_BODY_BYTES } from "./request-body";

/** Registrations one address may make per window: enough for a developer's agents, too few to fill the table. */
export const MAX_REGISTRATIONS_PER_ADDRESS = 20;
export const REGISTRATION_WINDOW_SECONDS = 3600;

async function readRegistration(request: IncomingRequest): Promise<unknown> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/json") throw new OAuthError("invalid_client_metadata", "Send the client metadata as application/json (RFC 7591).");
  const read = await readBody(request, MAX_BODY_BYTES);
  if (!read.ok) {
    if (read.reason === "too-large") throw new OAuthError("invalid_request", `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { status: 413 });
    throw new OAuthError("invalid_request", "The request body did not arrive whole.");
  }
  try {
    return JSON.parse(read.bytes.toString("utf8"));
  } catch {
    throw new OAuthError("invalid_client_metadata", "The request body is not valid JSON.");
  }
}

/**
 * Dynamic client registration (RFC 7591) of agents: public clients (`none`), redirect URIs on
 * loopback or https, counted per address; a registration unused for 30 days expires and is
 * deleted at a later registration.
 */
export function createAgentRegistration(deps: { store: AgentStore; throttle: FailureCounter }) {
  return async function register(request: IncomingRequest, env: EnvironmentRow, address: string): Promise<PlainResponse> {
    const window = await deps.throttle.current(address);
    if (window.count >= MAX_REGISTRATIONS_PER_ADDRESS) {
      throw new OAuthError("temporarily_unavailable", "Too many registrations from this address; try again later.", {
        headers: { "retry-after": String(Math.max(1, window.resetSeconds)) },
      });
    }
    const parsed = agentRegistrationSchema.safeParse(await readRegistration(request));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map(String).join(".") || "body";
      const code = field.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata";
      throw new OAuthError(code, `The field ${field} ${issue.message.toLowerCase()}.`);
    }
    await deps.throttle.record(address);
    const now = new Date();
    await deps.store.deleteUnusedAgents(new Date(now.getTime() - AGENT_REGISTRATION_LIFETIME_MS));
    const { redirect_uris: redirectUris } = parsed.data;
    const agent = { id: newId("agc"), environmentId: env.id, name: parsed.data.client_name ?? "Unnamed agent", redirectUris };
    await deps.store.registerAgent(agent, now);
    return oauthJson(201, {
      client_id: agent.id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      client_name: agent.name,
      redirect_uris: redirectUris,
      grant_types: [...AGENT_GRANT_TYPES],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
  };
}
