import { z } from "zod";

/** RFC 6749 §3.3 scope-token characters, space-separated. */
const SCOPE_LIST = /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/;

const clientId = z.string().min(1).max(200).meta({ description: "Your client ID (`gci_…`), for `client_secret_post`.", example: "gci_0123456789abcdef01234567" });
const clientSecret = z
  .string()
  .min(1)
  .max(200)
  .meta({ description: "Your client secret (`gsk_…`), for `client_secret_post`. Never put it in the URL.", format: "password" });

export const tokenRequestSchema = z.object({
  grant_type: z.enum(["client_credentials"]).meta({ description: "Always `client_credentials` (RFC 6749 §4.4)." }),
  scope: z
    .string()
    .max(2000)
    .regex(SCOPE_LIST, "must be space-separated scope names")
    .optional()
    .meta({ description: "Space-separated scopes to narrow the token to; by default every scope granted to the client.", example: "notifications:read" }),
  client_id: clientId.optional(),
  client_secret: clientSecret.optional(),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string().meta({ description: "An RS256-signed JWT (RFC 9068); send it as `Authorization: Bearer <token>`." }),
  token_type: z.literal("Bearer"),
  expires_in: z.int().positive().meta({ description: "Lifetime in seconds.", example: 3600 }),
  scope: z.string().meta({ description: "The scopes the token carries, space-separated.", example: "notifications:read notifications:write" }),
});

export const OAUTH_ERROR_CODES = ["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope", "temporarily_unavailable"] as const;

export const oauthErrorSchema = z.object({
  error: z.enum(OAUTH_ERROR_CODES).meta({ description: "RFC 6749 §5.2 error code." }),
  error_description: z.string().meta({ description: "What went wrong, for a developer to read." }),
});

const tokenToInspect = z.string().min(1).max(8192).meta({ description: "An access token issued by this environment." });

export const revocationRequestSchema = z.object({
  token: tokenToInspect,
  token_type_hint: z.string().max(100).optional().meta({ description: "Ignored: only access tokens exist here." }),
  client_id: clientId.optional(),
  client_secret: clientSecret.optional(),
});

export const introspectionRequestSchema = revocationRequestSchema;

export const introspectionResponseSchema = z.object({
  active: z.boolean(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  sub: z.string().optional(),
  token_type: z.literal("Bearer").optional(),
  exp: z.int().optional(),
  iat: z.int().optional(),
  iss: z.string().optional(),
  aud: z.string().optional(),
  jti: z.string().optional(),
  env: z.string().optional(),
});
