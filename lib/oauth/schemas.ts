import { z } from "zod";
import { OAUTH_ERROR_CODES } from "../http/oauth-error-codes";
import { CLIENT_ASSERTION_TYPE } from "./assertion-rules";

/** RFC 6749 §3.3 scope-token characters, space-separated. */
const SCOPE_LIST = /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/;

/** RFC 6749 §3.3 scope lists and token lengths: the same bounds for what clients send and what they get back. */
const MAX_SCOPE_LENGTH = 2000;
export const MAX_TOKEN_LENGTH = 8192;
const MAX_CLIENT_ID_LENGTH = 200;

/** An environment's token lifetime is at most a day (lib/environments/environments.ts). */
export const MAX_TOKEN_LIFETIME_SECONDS = 86_400;

/** Seconds since the epoch, as JWT claims carry them. */
const unixTime = z.int().min(0).meta({ format: "int64" });

const clientId = z
  .string()
  .min(1)
  .max(MAX_CLIENT_ID_LENGTH)
  .meta({ description: "Your client ID (`gci_…`), for `client_secret_post` and client assertions.", example: "gci_0123456789abcdef01234567" });
const clientSecret = z
  .string()
  .min(1)
  .max(200)
  .meta({ description: "Your client secret (`gsk_…`), for `client_secret_post`. Never put it in the URL.", format: "password" });

// Swagger UI sends every field it fills in, and an assertion beside a client secret is refused, so these
// fields' examples are empty; the token endpoint reads an empty parameter as omitted (RFC 6749 §3.2), and
// their schemas say so, so that each example is valid under its own schema.
const clientAssertionType = z.enum([CLIENT_ASSERTION_TYPE, ""]).meta({
  description: "For `private_key_jwt` and workload identity federation: always the RFC 7523 JWT bearer type. Empty is the same as omitted.",
  example: "",
});
const clientAssertion = z.string().max(MAX_TOKEN_LENGTH).meta({
  example: "",
  description:
    "For `private_key_jwt`: a JWT signed with one of your keys, `iss` and `sub` your client ID, `aud` the token endpoint, a `jti` and an `exp` at most 5 minutes ahead. For a federated credential: your platform's ID token, with `client_id`. Empty is the same as omitted.",
});

/** The fields of client authentication, one method per request: a secret (Basic or in the body) or a client assertion. */
const clientAuthentication = {
  client_id: clientId.optional(),
  client_secret: clientSecret.optional(),
  client_assertion_type: clientAssertionType.optional(),
  client_assertion: clientAssertion.optional(),
};

export const tokenRequestSchema = z.object({
  grant_type: z
    .enum(["client_credentials"])
    .meta({ description: "`client_credentials` (RFC 6749 §4.4), for a client of its own; agents send the `authorization_code` and `refresh_token` grants." }),
  scope: z
    .string()
    .max(MAX_SCOPE_LENGTH)
    .regex(SCOPE_LIST, "must be space-separated scope names")
    .optional()
    .meta({ description: "Space-separated scopes to narrow the token to; by default every scope granted to the client.", example: "notifications:read" }),
  ...clientAuthentication,
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string().max(MAX_TOKEN_LENGTH).meta({
    description:
      "An RS256-signed JWT (RFC 9068); send it as `Authorization: Bearer <token>`, or, when `token_type` is `DPoP`, as `Authorization: DPoP <token>` with a DPoP proof.",
  }),
  token_type: z
    .enum(["Bearer", "DPoP"])
    .meta({ description: "`DPoP` when the request carried a DPoP proof (RFC 9449): the token is bound to the proof's key (`cnf.jkt`)." }),
  expires_in: z.int32().min(1).max(MAX_TOKEN_LIFETIME_SECONDS).meta({ format: "int32", description: "Lifetime in seconds.", example: 3600 }),
  scope: z
    .string()
    .max(MAX_SCOPE_LENGTH)
    .meta({ description: "The scopes the token carries, space-separated.", example: "notifications:read notifications:write" }),
  refresh_token: z.string().max(MAX_TOKEN_LENGTH).optional().meta({
    description:
      "Only for an agent's `authorization_code` or `refresh_token` grant: the token to refresh with, replaced at every use (RFC 9700 §4.14); presenting a spent one revokes every token of the grant.",
  }),
});

export const oauthErrorSchema = z.object({
  error: z.enum(OAUTH_ERROR_CODES).meta({ description: "RFC 6749 §5.2 error code." }),
  error_description: z.string().max(500).meta({ description: "What went wrong, for a developer to read." }),
});

const tokenToInspect = z.string().min(1).max(MAX_TOKEN_LENGTH).meta({ description: "An access token issued by this environment." });

export const revocationRequestSchema = z.object({
  token: tokenToInspect,
  token_type_hint: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "Ignored: a client with a secret or assertion holds only access tokens; an agent's refresh token starts `grt_`." }),
  ...clientAuthentication,
});

export const introspectionRequestSchema = revocationRequestSchema;

export const introspectionResponseSchema = z.object({
  active: z.boolean(),
  scope: z.string().max(MAX_SCOPE_LENGTH).optional(),
  client_id: z.string().max(MAX_CLIENT_ID_LENGTH).optional(),
  sub: z.string().max(MAX_CLIENT_ID_LENGTH).optional(),
  token_type: z.enum(["Bearer", "DPoP"]).optional(),
  /** RFC 9449 §6.2: the thumbprint of the key a DPoP-bound token is bound to */
  cnf: z.object({ jkt: z.string().max(100) }).optional(),
  exp: unixTime.optional(),
  iat: unixTime.optional(),
  iss: z.url().max(2048).optional(),
  aud: z.url().max(2048).optional(),
  jti: z.string().max(100).optional(),
  env: z.string().max(100).optional(),
});

/** The public half of an RS256 signing key (RFC 7517); `n` of a 4096-bit modulus is 683 base64url characters. */
const publicSigningKeySchema = z.object({
  kty: z.literal("RSA"),
  kid: z.string().max(100),
  use: z.literal("sig"),
  alg: z.literal("RS256"),
  n: z.string().max(683),
  e: z.string().max(8),
});

export const MAX_PUBLISHED_KEYS = 20;

export const jsonWebKeySetSchema = z.object({ keys: z.array(publicSigningKeySchema).max(MAX_PUBLISHED_KEYS) });
