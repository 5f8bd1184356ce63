import { defineOperation } from "../built-in-apis/operation";
import { OAUTH_ERROR_STATUS } from "../http/oauth-error-codes";
import { FAILURE_WINDOW_SECONDS } from "./client-authentication";
import { MAX_BODY_BYTES } from "./request-body";

type JsonObject = Record<string, unknown>;

/** The token service's endpoints, each implemented once in token-service.ts. */
export type TokenEndpoint = "token" | "revoke" | "introspect" | "jwks" | "metadata" | "register";

const NO_STORE_HEADERS = {
  "Cache-Control": { description: "Always `no-store`: token responses are never cached.", schema: { type: "string", const: "no-store" } },
};

function oauthError(description: string, examples: Record<string, [string, string]>, headers: JsonObject = {}): JsonObject {
  return {
    description,
    headers: { ...NO_STORE_HEADERS, ...headers },
    content: {
      "application/json": {
        schema: { $ref: "#/components/schemas/OAuthError" },
        examples: Object.fromEntries(
          Object.entries(examples).map(([name, [error, errorDescription]]) => [name, { value: { error, error_description: errorDescription } }]),
        ),
      },
    },
  };
}

const EXAMPLE_CLIENT = { client_id: "gci_0123456789abcdef01234567", client_secret: "gsk_…" };

/**
 * A body schema for both media types RFC 6749 requests may use here: one object schema, which
 * Swagger UI turns into a form (it renders a oneOf as a bare text box). An agent's requests are
 * published as schemas of their own, which the operation's description names.
 */
function formBody(schemaRef: string, example: JsonObject): JsonObject {
  return {
    required: true,
    content: {
      "application/x-www-form-urlencoded": { schema: { $ref: schemaRef }, example },
      "application/json": { schema: { $ref: schemaRef }, example },
    },
  };
}

const MALFORMED_EXAMPLES: Record<string, [string, string]> = {
  missing: ["invalid_request", "The parameter grant_type is missing."],
  repeated: ["invalid_request", 'The parameter "scope" is repeated.'],
  bothMethods: ["invalid_request", "Authenticate with HTTP Basic or with client_id and client_secret in the body, not both."],
};

function clientErrors(envSlug: string): JsonObject {
  return {
    [OAUTH_ERROR_STATUS.invalid_request]: oauthError(
      "The request is malformed: a missing, repeated or invalid parameter, or both client authentication methods at once.",
      MALFORMED_EXAMPLES,
    ),
    [OAUTH_ERROR_STATUS.invalid_client]: oauthError(
      "Client authentication failed: unknown client, wrong secret, revoked credential, or a credential of another environment.",
      { invalidClient: ["invalid_client", "Client authentication failed."] },
      { "WWW-Authenticate": { description: "The HTTP Basic challenge of this environment.", schema: { type: "string", const: `Basic realm="${envSlug}"` } } },
    ),
    "405": oauthError(
      "Only POST is accepted.",
      { method: ["invalid_request", "This endpoint accepts POST only."] },
      {
        Allow: { schema: { type: "string", const: "POST" } },
      },
    ),
    "413": oauthError(`The body is larger than ${MAX_BODY_BYTES} bytes.`, {
      tooLarge: ["invalid_request", `The request body is larger than ${MAX_BODY_BYTES} bytes.`],
    }),
    [OAUTH_ERROR_STATUS.temporarily_unavailable]: oauthError(
      "Too many failed authentications for this client id; wait as Retry-After says.",
      { throttled: ["temporarily_unavailable", "Too many failed attempts for this client; try again later."] },
      { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", format: "int32", minimum: 1, maximum: FAILURE_WINDOW_SECONDS } } },
    ),
  };
}

const CLIENT_AUTH_NOTE =
  "Authenticate the client with HTTP Basic (`client_secret_basic`: `Authorization: Basic base64(urlencode(client_id):urlencode(client_secret))`) " +
  "or with `client_id` and `client_secret` in the body (`client_secret_post`), never both.";

const OAUTH_TAGS = ["OAuth 2.0"];
const DISCOVERY_TAGS = ["Discovery"];

/**
 * The token service of every environment, `{gateway}/oauth2/*` and
 * `{gateway}/.well-known/*`: the gateway's path checks, the dispatch in
 * token-service.ts and the token APIs' documents are built from this list.
 * None has a scope: clients authenticate in the request itself.
 */
export const TOKEN_OPERATIONS = [
  defineOperation({
    id: "requestAccessToken",
    method: "POST",
    path: "/oauth2/token",
    tags: OAUTH_TAGS,
    summary: "Get an access token (client credentials; an agent's authorization code or refresh token)",
    description: `RFC 6749 §4.4. ${CLIENT_AUTH_NOTE} Without \`scope\`, the token carries every scope granted to the client. With a \`DPoP\` header (RFC 9449), the token is bound to the proof's key: \`token_type\` is \`DPoP\`. An agent registered at \`/oauth2/register\` sends \`grant_type=authorization_code\` with \`code\`, \`redirect_uri\`, \`code_verifier\` (PKCE S256), \`client_id\` and optionally \`resource\`, or \`grant_type=refresh_token\` with \`refresh_token\` and \`client_id\`: the answer adds a \`refresh_token\`, replaced at every use, and a reused one revokes every token of the grant. Their bodies are the \`AuthorizationCodeRequest\` and \`RefreshTokenRequest\` schemas.`,
    requestBody: formBody("#/components/schemas/TokenRequest", { grant_type: "client_credentials", scope: "notifications:read", ...EXAMPLE_CLIENT }),
    responses: ({ envSlug }) => ({
      "200": {
        description: "A signed access token.",
        headers: NO_STORE_HEADERS,
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/TokenResponse" },
            example: {
              access_token: "eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCIsImtpZCI6ImtleV8uLi4ifQ…",
              token_type: "Bearer",
              expires_in: 3600,
              scope: "notifications:read",
            },
          },
        },
      },
      ...clientErrors(envSlug),
      [OAUTH_ERROR_STATUS.invalid_request]: oauthError(
        "The request is malformed, the grant type is not client_credentials, or a scope is not granted to the client.",
        {
          ...MALFORMED_EXAMPLES,
          unsupportedGrant: [
            "unsupported_grant_type",
            'The grant type "password" is not supported; use client_credentials, authorization_code or refresh_token.',
          ],
          invalidScope: ["invalid_scope", 'The client is not granted the scope "admin:all".'],
          invalidDpopProof: ["invalid_dpop_proof", "The DPoP proof's htu must be the URL called, without query or fragment."],
          useDpopNonce: ["use_dpop_nonce", "The DPoP proof must carry the server's current nonce, sent in the DPoP-Nonce header."],
        },
      ),
    }),
    handle: "token",
  }),
  defineOperation({
    id: "revokeAccessToken",
    method: "POST",
    path: "/oauth2/revoke",
    tags: OAUTH_TAGS,
    summary: "Revoke one of your access tokens, or an agent's refresh token (RFC 7009)",
    description: `${CLIENT_AUTH_NOTE} The token stops working at the gateway within seconds. An agent, a public client, sends its \`client_id\` alone: its refresh token (\`grt_…\`) revokes its whole grant, every refresh token and the access tokens issued under it; its access token, that token. Unknown tokens, and another client's or agent's, answer 200 too and change nothing. An agent's body is the \`AgentRevocationRequest\` schema.`,
    requestBody: formBody("#/components/schemas/RevocationRequest", { token: "eyJ…", ...EXAMPLE_CLIENT }),
    responses: ({ envSlug }) => ({ "200": { description: "Revoked, or nothing to revoke.", headers: NO_STORE_HEADERS }, ...clientErrors(envSlug) }),
    handle: "revoke",
  }),
  defineOperation({
    id: "introspectAccessToken",
    method: "POST",
    path: "/oauth2/introspect",
    tags: OAUTH_TAGS,
    summary: "Introspect an access token (RFC 7662)",
    description: `For services behind the gateway, with a credential of their own. ${CLIENT_AUTH_NOTE} Foreign, unknown, revoked or expired tokens answer \`{"active": false}\` only.`,
    requestBody: formBody("#/components/schemas/IntrospectionRequest", { token: "eyJ…", ...EXAMPLE_CLIENT }),
    responses: ({ envSlug }) => ({
      "200": {
        description: "The token's state.",
        headers: NO_STORE_HEADERS,
        content: { "application/json": { schema: { $ref: "#/components/schemas/IntrospectionResponse" } } },
      },
      ...clientErrors(envSlug),
    }),
    handle: "introspect",
  }),
  defineOperation({
    id: "registerAgentClient",
    method: "POST",
    path: "/oauth2/register",
    tags: OAUTH_TAGS,
    summary: "Register an AI agent as a public client (RFC 7591)",
    description:
      "JSON client metadata: `redirect_uris` (1 to 10, each `http://` on 127.0.0.1, localhost or [::1], any port, or `https://`), `client_name` (up to 100 characters, shown on the consent page as unverified), `token_endpoint_auth_method` `none` only. At most 20 registrations per address an hour; a registration unused for 30 days expires.",
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/AgentRegistrationRequest" },
          example: { client_name: "My agent", redirect_uris: ["http://127.0.0.1:33418/callback"], token_endpoint_auth_method: "none" },
        },
      },
    },
    responses: () => ({
      "201": {
        description: "The agent's client ID.",
        headers: NO_STORE_HEADERS,
        content: { "application/json": { schema: { $ref: "#/components/schemas/AgentRegistrationResponse" } } },
      },
      [OAUTH_ERROR_STATUS.invalid_client_metadata]: oauthError("A field is not acceptable.", {
        redirectUri: ["invalid_redirect_uri", "The field redirect_uris.0 must be http:// on 127.0.0.1, localhost or [::1], or https://."],
        metadata: ["invalid_client_metadata", 'The field token_endpoint_auth_method invalid input: expected "none".'],
      }),
      "405": oauthError(
        "Only POST is accepted.",
        { method: ["invalid_request", "This endpoint accepts POST only."] },
        { Allow: { schema: { type: "string", const: "POST" } } },
      ),
      "413": oauthError(`The body is larger than ${MAX_BODY_BYTES} bytes.`, {
        tooLarge: ["invalid_request", `The request body is larger than ${MAX_BODY_BYTES} bytes.`],
      }),
      [OAUTH_ERROR_STATUS.temporarily_unavailable]: oauthError(
        "Too many registrations from this address; wait as Retry-After says.",
        { throttled: ["temporarily_unavailable", "Too many registrations from this address; try again later."] },
        { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", format: "int32", minimum: 1, maximum: 3600 } } },
      ),
    }),
    handle: "register",
  }),
  defineOperation({
    id: "getJsonWebKeySet",
    method: "GET",
    path: "/.well-known/jwks.json",
    tags: DISCOVERY_TAGS,
    summary: "Public keys that sign this environment's tokens (RFC 7517)",
    responses: () => ({
      "200": {
        description: "The JWK set: RSA public keys with `kid`, `use: sig` and `alg: RS256`.",
        content: { "application/jwk-set+json": { schema: { $ref: "#/components/schemas/JsonWebKeySet" } } },
      },
    }),
    handle: "jwks",
  }),
  defineOperation({
    id: "getAuthorizationServerMetadata",
    method: "GET",
    path: "/.well-known/oauth-authorization-server",
    tags: DISCOVERY_TAGS,
    summary: "Authorization server metadata (RFC 8414)",
    responses: () => ({
      "200": {
        description: "Issuer, endpoints, grant types, client authentication methods and scopes.",
        content: { "application/json": { schema: { type: "object" } } },
      },
    }),
    handle: "metadata",
  }),
];

export type TokenOperation = (typeof TOKEN_OPERATIONS)[number];

type Relative<Path> = Path extends `/${infer Rest}` ? Rest : never;

/** A token-service path relative to the environment's gateway, e.g. `oauth2/token`. */
export type TokenServicePath = Relative<TokenOperation["path"]>;

const BY_PATH = new Map<string, TokenOperation>(TOKEN_OPERATIONS.map((operation) => [operation.path.slice(1), operation]));

export function isTokenServicePath(path: string): path is TokenServicePath {
  return BY_PATH.has(path);
}

export function tokenOperation(path: TokenServicePath): TokenOperation {
  return BY_PATH.get(path)!;
}
