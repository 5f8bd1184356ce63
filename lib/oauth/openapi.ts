import { z } from "zod";
import { CORS_NOTE } from "../http/cors-note";
import { FAILURE_WINDOW_SECONDS } from "./client-authentication";
import { MAX_BODY_BYTES } from "./request-body";
import {
  introspectionRequestSchema,
  introspectionResponseSchema,
  jsonWebKeySetSchema,
  oauthErrorSchema,
  revocationRequestSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from "./schemas";

type JsonObject = Record<string, unknown>;

export type TokenApiDocumentInput = {
  api: { name: string; summary: string; description: string; version: string };
  env: { slug: string; name: string };
  /** `{PUBLIC_URL}/gw/{env}`: the one server of the document */
  gatewayUrl: string;
};

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" });
  return rest;
}

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

/** A body schema for both media types RFC 6749 requests may use here. */
function formBody(schemaRef: string, example: JsonObject): JsonObject {
  return {
    required: true,
    content: {
      "application/x-www-form-urlencoded": { schema: { $ref: schemaRef }, example },
      "application/json": { schema: { $ref: schemaRef }, example },
    },
  };
}

function clientErrors(envSlug: string): JsonObject {
  return {
    "400": oauthError("The request is malformed: a missing, repeated or invalid parameter, or both client authentication methods at once.", {
      missing: ["invalid_request", "The parameter grant_type is missing."],
      repeated: ["invalid_request", 'The parameter "scope" is repeated.'],
      bothMethods: ["invalid_request", "Authenticate with HTTP Basic or with client_id and client_secret in the body, not both."],
    }),
    "401": oauthError(
      "Client authentication failed: unknown client, wrong secret, revoked credential, or a credential of another environment.",
      { invalidClient: ["invalid_client", "Client authentication failed."] },
      { "WWW-Authenticate": { description: "The HTTP Basic challenge of this environment.", schema: { type: "string", const: `Basic realm="${envSlug}"` } } },
    ),
    "405": oauthError("Only POST is accepted.", { method: ["invalid_request", "This endpoint accepts POST only."] }, {
      Allow: { schema: { type: "string", const: "POST" } },
    }),
    "413": oauthError(`The body is larger than ${MAX_BODY_BYTES} bytes.`, { tooLarge: ["invalid_request", `The request body is larger than ${MAX_BODY_BYTES} bytes.`] }),
    "429": oauthError(
      "Too many failed authentications for this client id; wait as Retry-After says.",
      { throttled: ["temporarily_unavailable", "Too many failed attempts for this client; try again later."] },
      { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", format: "int32", minimum: 1, maximum: FAILURE_WINDOW_SECONDS } } },
    ),
  };
}

const CLIENT_AUTH_NOTE =
  "Authenticate the client with HTTP Basic (`client_secret_basic`: `Authorization: Basic base64(urlencode(client_id):urlencode(client_secret))`) " +
  "or with `client_id` and `client_secret` in the body (`client_secret_post`), never both.";

/**
 * The OpenAPI 3.1 document of a token API for one environment, generated
 * from the zod schemas that validate the requests. It declares no security
 * scheme: the client authenticates in the request itself, so Swagger UI
 * shows no Authorize control.
 */
export function tokenApiDocument({ api, env, gatewayUrl }: TokenApiDocumentInput): JsonObject {
  const exampleClient = { client_id: "gci_0123456789abcdef01234567", client_secret: "gsk_…" };
  return {
    openapi: "3.1.0",
    info: { title: api.name, summary: api.summary, description: `${api.description}\n\nEnvironment: ${env.name} (\`${env.slug}\`).\n\n${CORS_NOTE}`, version: api.version },
    servers: [{ url: gatewayUrl, description: env.name }],
    tags: [{ name: "OAuth 2.0" }, { name: "Discovery" }],
    paths: {
      "/oauth2/token": {
        post: {
          operationId: "requestAccessToken",
          tags: ["OAuth 2.0"],
          summary: "Get an access token (client credentials)",
          description: `RFC 6749 §4.4. ${CLIENT_AUTH_NOTE} Without \`scope\`, the token carries every scope granted to the client.`,
          requestBody: formBody("#/components/schemas/TokenRequest", { grant_type: "client_credentials", scope: "notifications:read", ...exampleClient }),
          responses: {
            "200": {
              description: "A signed access token.",
              headers: NO_STORE_HEADERS,
              content: {
                "application/json": {
                  schema: { $ref: "#/components/schemas/TokenResponse" },
                  example: { access_token: "eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCIsImtpZCI6ImtleV8uLi4ifQ…", token_type: "Bearer", expires_in: 3600, scope: "notifications:read" },
                },
              },
            },
            ...clientErrors(env.slug),
            "400": oauthError("The request is malformed, the grant type is not client_credentials, or a scope is not granted to the client.", {
              missing: ["invalid_request", "The parameter grant_type is missing."],
              repeated: ["invalid_request", 'The parameter "scope" is repeated.'],
              bothMethods: ["invalid_request", "Authenticate with HTTP Basic or with client_id and client_secret in the body, not both."],
              unsupportedGrant: ["unsupported_grant_type", 'The grant type "password" is not supported; use client_credentials.'],
              invalidScope: ["invalid_scope", 'The client is not granted the scope "admin:all".'],
            }),
          },
        },
      },
      "/oauth2/revoke": {
        post: {
          operationId: "revokeAccessToken",
          tags: ["OAuth 2.0"],
          summary: "Revoke one of your access tokens (RFC 7009)",
          description: `${CLIENT_AUTH_NOTE} The token stops working at the gateway within seconds. Unknown tokens answer 200 too.`,
          requestBody: formBody("#/components/schemas/RevocationRequest", { token: "eyJ…", ...exampleClient }),
          responses: { "200": { description: "Revoked, or nothing to revoke.", headers: NO_STORE_HEADERS }, ...clientErrors(env.slug) },
        },
      },
      "/oauth2/introspect": {
        post: {
          operationId: "introspectAccessToken",
          tags: ["OAuth 2.0"],
          summary: "Introspect an access token (RFC 7662)",
          description: `For services behind the gateway, with a credential of their own. ${CLIENT_AUTH_NOTE} Foreign, unknown, revoked or expired tokens answer \`{"active": false}\` only.`,
          requestBody: formBody("#/components/schemas/IntrospectionRequest", { token: "eyJ…", ...exampleClient }),
          responses: {
            "200": {
              description: "The token's state.",
              headers: NO_STORE_HEADERS,
              content: { "application/json": { schema: { $ref: "#/components/schemas/IntrospectionResponse" } } },
            },
            ...clientErrors(env.slug),
          },
        },
      },
      "/.well-known/jwks.json": {
        get: {
          operationId: "getJsonWebKeySet",
          tags: ["Discovery"],
          summary: "Public keys that sign this environment's tokens (RFC 7517)",
          responses: {
            "200": {
              description: "The JWK set: RSA public keys with `kid`, `use: sig` and `alg: RS256`.",
              content: { "application/jwk-set+json": { schema: { $ref: "#/components/schemas/JsonWebKeySet" } } },
            },
          },
        },
      },
      "/.well-known/oauth-authorization-server": {
        get: {
          operationId: "getAuthorizationServerMetadata",
          tags: ["Discovery"],
          summary: "Authorization server metadata (RFC 8414)",
          responses: { "200": { description: "Issuer, endpoints, grant types, client authentication methods and scopes.", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
    components: {
      schemas: {
        TokenRequest: jsonSchema(tokenRequestSchema, "input"),
        TokenResponse: jsonSchema(tokenResponseSchema, "output"),
        OAuthError: jsonSchema(oauthErrorSchema, "output"),
        RevocationRequest: jsonSchema(revocationRequestSchema, "input"),
        IntrospectionRequest: jsonSchema(introspectionRequestSchema, "input"),
        IntrospectionResponse: jsonSchema(introspectionResponseSchema, "output"),
        JsonWebKeySet: jsonSchema(jsonWebKeySetSchema, "output"),
      },
    },
  };
}
