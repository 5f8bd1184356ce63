import { z } from "zod";
import { isAcceptableRedirectUri, MAX_REDIRECT_URI_LENGTH } from "./agent-redirect-uris";
import { MAX_TOKEN_LENGTH } from "./schemas";

/** RFC 7591 bounds: a handful of redirect URIs, a name a consent page can show. */
export const MAX_REDIRECT_URIS = 10;
export const MAX_CLIENT_NAME_LENGTH = 100;
const MAX_CODE_LENGTH = 200;
/** A client ID is `agc_…` from registration, or the URL of a client ID metadata document. */
export const MAX_AGENT_ID_LENGTH = 2000;

const agentId = z
  .string()
  .min(1)
  .max(MAX_AGENT_ID_LENGTH)
  .meta({ description: "The agent's client ID: `agc_…` from registration, or the https URL of its client ID metadata document." });
const resource = z.url().max(2048).meta({ description: "RFC 8707: the MCP server's URL; when sent, it must be the one the code or refresh token is for." });

/** An agent's registration (RFC 7591): a public client, authenticating with nothing but PKCE. */
export const agentRegistrationSchema = z.object({
  redirect_uris: z
    .array(z.string().max(MAX_REDIRECT_URI_LENGTH).refine(isAcceptableRedirectUri, "must be http:// on 127.0.0.1, localhost or [::1], or https://"))
    .min(1)
    .max(MAX_REDIRECT_URIS),
  client_name: z.string().trim().min(1).max(MAX_CLIENT_NAME_LENGTH).optional(),
  token_endpoint_auth_method: z.literal("none").optional(),
  grant_types: z
    .array(z.enum(["authorization_code", "refresh_token"]))
    .max(2)
    .optional(),
  response_types: z.array(z.literal("code")).max(1).optional(),
  scope: z.string().max(2000).optional(),
});

/**
 * A client ID metadata document (draft-ietf-oauth-client-id-metadata-document): a registration
 * the agent publishes at its client_id, which it must name; public clients only.
 */
export const agentClientDocumentSchema = agentRegistrationSchema.extend({ client_id: z.string().max(MAX_AGENT_ID_LENGTH) });

export const agentRegistrationResponseSchema = z.object({
  client_id: agentId,
  client_id_issued_at: z.int().min(0).meta({ format: "int64" }),
  client_name: z.string().max(MAX_CLIENT_NAME_LENGTH),
  redirect_uris: z.array(z.string().max(MAX_REDIRECT_URI_LENGTH)).max(MAX_REDIRECT_URIS),
  grant_types: z.array(z.enum(["authorization_code", "refresh_token"])).max(2),
  response_types: z.array(z.literal("code")).max(1),
  token_endpoint_auth_method: z.literal("none"),
});

/** The authorization code grant of an agent (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.5). */
export const authorizationCodeRequestSchema = z.object({
  grant_type: z.literal("authorization_code"),
  code: z.string().min(1).max(MAX_CODE_LENGTH),
  redirect_uri: z.string().min(1).max(MAX_REDIRECT_URI_LENGTH),
  // RFC 7636 §4.1: 43 to 128 unreserved characters.
  code_verifier: z
    .string()
    .max(128)
    .regex(/^[A-Za-z0-9\-._~]{43,128}$/, "must be 43 to 128 unreserved characters (RFC 7636)"),
  client_id: agentId,
  resource: resource.optional(),
});

/** An agent's refresh (RFC 6749 §6); the refresh token is replaced on every use. */
export const refreshTokenRequestSchema = z.object({
  grant_type: z.literal("refresh_token"),
  refresh_token: z.string().min(1).max(MAX_CODE_LENGTH),
  client_id: agentId,
  resource: resource.optional(),
  scope: z.string().max(2000).optional(),
});

/** An agent's revocation (RFC 7009): its public client_id and no secret, as at the token endpoint. */
export const agentRevocationRequestSchema = z.object({
  token: z.string().min(1).max(MAX_TOKEN_LENGTH).meta({
    description:
      "One of the agent's refresh tokens (`grt_…`), which revokes its whole grant and the access tokens issued under it, or one of its access tokens.",
  }),
  token_type_hint: z.enum(["refresh_token", "access_token"]).optional().meta({ description: "Ignored: a refresh token is told apart by its `grt_` prefix." }),
  // An agent's client_id, never a credential's, which authenticates as RevocationRequest says.
  client_id: agentId.regex(/^(agc_|https?:\/\/)/, "must be an agent's client ID"),
});
