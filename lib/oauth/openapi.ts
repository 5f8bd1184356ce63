import { jsonSchema, operationPaths } from "../built-in-apis/operation";
import { CORS_NOTE } from "../http/cors-note";
import {
  agentRegistrationResponseSchema,
  agentRegistrationSchema,
  agentRevocationRequestSchema,
  authorizationCodeRequestSchema,
  refreshTokenRequestSchema,
} from "./agent-schemas";
import { TOKEN_OPERATIONS } from "./operations";
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

/**
 * The OpenAPI 3.1 document of a token API for one environment, generated
 * from the zod schemas that validate the requests. It declares no security
 * scheme: the client authenticates in the request itself, so Swagger UI
 * shows no Authorize control.
 */
export function tokenApiDocument({ api, env, gatewayUrl }: TokenApiDocumentInput): JsonObject {
  return {
    openapi: "3.1.0",
    info: {
      title: api.name,
      summary: api.summary,
      description: `${api.description}\n\nEnvironment: ${env.name} (\`${env.slug}\`).\n\n${CORS_NOTE}`,
      version: api.version,
    },
    servers: [{ url: gatewayUrl, description: env.name }],
    tags: [{ name: "OAuth 2.0" }, { name: "Discovery" }],
    paths: operationPaths(TOKEN_OPERATIONS, { context: { gatewayUrl, envSlug: env.slug } }),
    components: {
      schemas: {
        TokenRequest: jsonSchema(tokenRequestSchema, "input"),
        AuthorizationCodeRequest: jsonSchema(authorizationCodeRequestSchema, "input"),
        RefreshTokenRequest: jsonSchema(refreshTokenRequestSchema, "input"),
        TokenResponse: jsonSchema(tokenResponseSchema, "output"),
        OAuthError: jsonSchema(oauthErrorSchema, "output"),
        RevocationRequest: jsonSchema(revocationRequestSchema, "input"),
        AgentRevocationRequest: jsonSchema(agentRevocationRequestSchema, "input"),
        IntrospectionRequest: jsonSchema(introspectionRequestSchema, "input"),
        IntrospectionResponse: jsonSchema(introspectionResponseSchema, "output"),
        JsonWebKeySet: jsonSchema(jsonWebKeySetSchema, "output"),
        AgentRegistrationRequest: jsonSchema(agentRegistrationSchema, "input"),
        AgentRegistrationResponse: jsonSchema(agentRegistrationResponseSchema, "output"),
      },
    },
  };
}
