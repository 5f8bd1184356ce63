import "server-only";
import type { Logger } from "pino";
import type { z } from "zod";
import type { EnvironmentRow } from "../data-plane/store";
import type { GatewayMetrics } from "../metrics/gateway-metrics";
import { type IncomingRequest, jsonPlainResponse, type PlainResponse } from "../http/message";
import { problem, toProblem } from "../http/problem";
import { issueAccessToken, TokenRejection } from "./access-tokens";
import { isAgentClientId } from "./agent-client-documents";
import type { AgentGrants } from "./agent-grants";
import type { createAgentRegistration } from "./agent-registration";
import type { TokenVerifier } from "./token-verifier";
import type { ClientAuthenticationFields, ClientAuthenticator } from "./client-authentication";
import { presentedClient } from "./client-authentication";
import { ASSERTION_ALGORITHMS } from "./assertion-rules";
import { isClientIdShaped } from "./client-secrets";
import { DPOP_ALGORITHMS, DpopRejection, type DpopNonces, type DpopVerifier } from "./dpop";
import type { CredentialStates } from "./credential-states";
import { authorizationEndpointFor, issuerFor } from "./issuer";
import { NO_STORE, OAuthError, oauthErrorResponse, oauthJson } from "./oauth-error";
import { type TokenEndpoint, type TokenServicePath, tokenOperation } from "./operations";
import { readOAuthFields } from "./request-body";
import type { RevocationList } from "./revoked-tokens";
import { introspectionRequestSchema, revocationRequestSchema, tokenRequestSchema } from "./schemas";
import { type KeyStore, SIGNING_ALGORITHM } from "./signing-keys";
import type { LastUsedMarks } from "./last-used-marks";

/**
 * What a refused call is logged under: its client, filled in once a token's signature
 * verifies, and the token endpoint's OAuth error, which is an answer and not a thrown problem.
 */
export type Attribution = { clientId?: string; problem?: string };

export type TokenServiceDeps = {
  /** the gateway's directory, declared by the little the token service reads (lib/gateway builds on lib/oauth): the APIs whose scopes the metadata lists */
  directory: { apis(environmentId: string): Promise<readonly { scopes: readonly string[] }[]> };
  keys: KeyStore;
  states: CredentialStates;
  revocations: RevocationList;
  authenticate: ClientAuthenticator;
  lastUsed: LastUsedMarks;
  /** the gateway's cached verifier, so revoke and introspect reuse verified tokens */
  verify: TokenVerifier;
  /** the caller's address, as the trusted proxies report it */
  addressOf: (request: IncomingRequest) => string;
  publicUrl: string;
  /** the URL the client called: the gateway's public URL and the path, which a DPoP proof's htu names */
  publicUrlOf: (request: IncomingRequest) => string;
  /** DPoP proofs (RFC 9449), and the server nonces of environments that require them */
  dpop: DpopVerifier;
  dpopNonces: DpopNonces;
  /** the authorization code and refresh token grants of agents, and their registration (RFC 7591) */
  agentGrants: AgentGrants;
  registerAgent: ReturnType<typeof createAgentRegistration>;
  log: Logger;
  metrics: Pick<GatewayMetrics, "tokenIssued" | "tokenRefused">;
};

export { isTokenServicePath, type TokenServicePath } from "./operations";

function invalidRequest(error: z.ZodError, fields: Record<string, string>): OAuthError {
  const issue = error.issues[0]!;
  const field = String(issue.path[0] ?? "body");
  if (field === "grant_type" && fields.grant_type !== undefined) {
    return new OAuthError(
      "unsupported_grant_type",
      `The grant type "${fields.grant_type.slice(0, 50)}" is not supported; use client_credentials, authorization_code or refresh_token.`,
    );
  }
  if (fields[field] === undefined) return new OAuthError("invalid_request", `The parameter ${field} is missing.`);
  return new OAuthError("invalid_request", `The parameter ${field} ${issue.message.toLowerCase()}.`);
}

function refuseSecretsInUrl(url: URL): void {
  if (url.searchParams.has("client_secret") || url.searchParams.has("client_id")) {
    throw new OAuthError("invalid_request", "Client credentials must not be sent in the URL.");
  }
}

export function createTokenService(deps: TokenServiceDeps) {
  const { directory, keys, states, revocations, lastUsed, verify, publicUrl, metrics, dpopNonces } = deps;

  /**
   * The key a DPoP proof binds the token to (RFC 9449 §5), or undefined for a bearer token, which
   * a credential or environment that requires DPoP does not get. A nonce the environment requires
   * is refused with `use_dpop_nonce` and the current one in `DPoP-Nonce`.
   */
  async function proofKey(request: IncomingRequest, env: EnvironmentRow, required: boolean): Promise<string | undefined> {
    const proof = request.headers.get("dpop");
    if (proof === null) {
      if (required) throw new OAuthError("invalid_dpop_proof", "This client must send a DPoP proof (RFC 9449) in the DPoP header to get a token.");
      return undefined;
    }
    try {
      const nonce = env.dpopNonce ? { nonces: dpopNonces, scope: env.id } : undefined;
      return (await deps.dpop({ proof, method: "POST", url: deps.publicUrlOf(request), nonce })).jkt;
    } catch (error) {
      if (!(error instanceof DpopRejection)) throw error;
      if (error.check === "nonce") throw new OAuthError("use_dpop_nonce", error.detail, { headers: { "dpop-nonce": dpopNonces.current(env.id) } });
      throw new OAuthError("invalid_dpop_proof", error.detail);
    }
  }

  async function fieldsOf(request: IncomingRequest, url: URL): Promise<Record<string, string>> {
    refuseSecretsInUrl(url);
    // RFC 6749 §3.2: a parameter sent without a value is treated as omitted.
    return Object.fromEntries(Object.entries(await readOAuthFields(request)).filter(([, value]) => value !== ""));
  }

  function parse<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.infer<T> {
    const result = schema.safeParse(fields);
    if (!result.success) throw invalidRequest(result.error, fields);
    return result.data;
  }

  async function parsed<T extends z.ZodType>(request: IncomingRequest, url: URL, schema: T): Promise<z.infer<T>> {
    return parse(schema, await fieldsOf(request, url));
  }

  /**
   * Client authentication; the request is logged under the client id it claimed (its status
   * says whether that failed), or none when what it sent is not shaped like a client id.
   */
  function authenticateClient(request: IncomingRequest, env: EnvironmentRow, body: ClientAuthenticationFields, attribution: Attribution) {
    const presented = presentedClient(request, body);
    if (isClientIdShaped(presented.clientId)) attribution.clientId = presented.clientId;
    return deps.authenticate({ envId: env.id, envSlug: env.slug, presented, clientAddress: deps.addressOf(request) });
  }

  async function token(request: IncomingRequest, url: URL, env: EnvironmentRow, attribution: Attribution): Promise<PlainResponse> {
    const fields = await fieldsOf(request, url);
    if (fields.grant_type === "authorization_code" || fields.grant_type === "refresh_token") {
      const grant = fields.grant_type === "authorization_code" ? deps.agentGrants.authorizationCode : deps.agentGrants.refreshToken;
      const answer = await grant(fields, env, parse);
      metrics.tokenIssued(env.slug);
      return answer;
    }
    const body = parse(tokenRequestSchema, fields);
    const { credential, secretId } = await authenticateClient(request, env, body, attribution);
    const granted = new Set([...credential.grants.values()].flatMap((scopes) => [...scopes]));
    const requested = body.scope ? [...new Set(body.scope.split(" "))] : undefined;
    const missing = requested?.filter((scope) => !granted.has(scope)) ?? [];
    if (missing.length > 0)
      throw new OAuthError("invalid_scope", `The client is not granted the scope ${missing.map((scope) => `"${scope.slice(0, 100)}"`).join(", ")}.`);
    const jkt = await proofKey(request, env, env.requireDpop || credential.requireDpop);
    const issued = await issueAccessToken({
      keys,
      publicUrl,
      env,
      clientId: credential.clientId,
      scopes: requested ?? [...granted].sort(),
      lifetimeSeconds: env.tokenLifetimeSeconds,
      jkt,
    });
    lastUsed.mark(credential.id, secretId);
    metrics.tokenIssued(env.slug);
    const answer = { access_token: issued.accessToken, token_type: jkt ? "DPoP" : "Bearer", expires_in: issued.expiresIn, scope: issued.scope };
    return oauthJson(200, answer, jkt && env.dpopNonce ? { "dpop-nonce": dpopNonces.current(env.id) } : {});
  }

  async function verifiedOrUndefined(env: EnvironmentRow, token: string) {
    try {
      return await verify(env, token);
    } catch (error) {
      if (error instanceof TokenRejection) return undefined;
      throw error;
    }
  }

  /**
   * RFC 7009: a client revokes one of its own tokens; unknown or foreign tokens still answer 200.
   * An agent, a public client, names itself by its client_id alone, as at the token endpoint.
   */
  async function revoke(request: IncomingRequest, url: URL, env: EnvironmentRow, attribution: Attribution): Promise<PlainResponse> {
    const fields = await fieldsOf(request, url);
    if (isAgentClientId(fields.client_id) && request.headers.get("authorization") === null) {
      await deps.agentGrants.revoke(fields, env, parse, (token) => verifiedOrUndefined(env, token));
      return { status: 200, headers: { ...NO_STORE }, body: null };
    }
    const body = parse(revocationRequestSchema, fields);
    const { credential } = await authenticateClient(request, env, body, attribution);
    const verified = await verifiedOrUndefined(env, body.token);
    if (verified && verified.clientId === credential.clientId) {
      await revocations.revoke({ jti: verified.jti, environmentId: env.id, expiresAt: new Date(verified.expiresAt * 1000) });
    }
    return { status: 200, headers: { ...NO_STORE }, body: null };
  }

  /** RFC 7662 for upstream services: anything but a live token of this environment is `{"active": false}`. */
  async function introspect(request: IncomingRequest, url: URL, env: EnvironmentRow, attribution: Attribution): Promise<PlainResponse> {
    const body = await parsed(request, url, introspectionRequestSchema);
    await authenticateClient(request, env, body, attribution);
    const verified = await verifiedOrUndefined(env, body.token);
    const owner = verified && (await states.get(verified.clientId));
    const active =
      verified && owner?.active && owner.environmentId === env.id && !(await revocations.isRevoked(verified.jti)) && verified.expiresAt * 1000 > Date.now();
    if (!verified || !active) return oauthJson(200, { active: false });
    return oauthJson(200, {
      active: true,
      scope: verified.scope,
      client_id: verified.clientId,
      sub: verified.clientId,
      token_type: verified.jkt ? "DPoP" : "Bearer",
      ...(verified.jkt ? { cnf: { jkt: verified.jkt } } : {}),
      exp: verified.expiresAt,
      iat: verified.issuedAt,
      iss: verified.issuer,
      aud: verified.audience,
      jti: verified.jti,
      env: env.slug,
    });
  }

  async function metadata(_request: IncomingRequest, _url: URL, env: EnvironmentRow): Promise<PlainResponse> {
    const issuer = issuerFor(publicUrl, env.slug);
    const scopes = [...new Set((await directory.apis(env.id)).flatMap((api) => api.scopes))].sort();
    const authMethods = ["client_secret_basic", "client_secret_post", "private_key_jwt"];
    return jsonPlainResponse(
      200,
      {
        issuer,
        token_endpoint: `${issuer}/oauth2/token`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        revocation_endpoint: `${issuer}/oauth2/revoke`,
        introspection_endpoint: `${issuer}/oauth2/introspect`,
        authorization_endpoint: authorizationEndpointFor(publicUrl, env.slug),
        registration_endpoint: `${issuer}/oauth2/register`,
        client_id_metadata_document_supported: true,
        grant_types_supported: ["client_credentials", "authorization_code", "refresh_token"],
        response_types_supported: ["code"],
        response_modes_supported: ["query"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: [...authMethods, "none"],
        revocation_endpoint_auth_methods_supported: [...authMethods, "none"],
        introspection_endpoint_auth_methods_supported: authMethods,
        scopes_supported: scopes,
        token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
        revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
        introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
        access_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
        dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
      },
      { "cache-control": "public, max-age=300" },
    );
  }

  function register(request: IncomingRequest, url: URL, env: EnvironmentRow): Promise<PlainResponse> {
    refuseSecretsInUrl(url);
    return deps.registerAgent(request, env, deps.addressOf(request));
  }

  async function jwks(_request: IncomingRequest, _url: URL, env: EnvironmentRow): Promise<PlainResponse> {
    // Make sure the environment has a key before anyone asks for tokens.
    await keys.signingKey(env.id);
    return jsonPlainResponse(200, await keys.jwks(env.id), { "cache-control": "public, max-age=60", "content-type": "application/jwk-set+json" });
  }

  const endpoints: Record<TokenEndpoint, (request: IncomingRequest, url: URL, env: EnvironmentRow, attribution: Attribution) => Promise<PlainResponse>> = {
    token,
    revoke,
    introspect,
    jwks,
    metadata,
    register,
  };

  /** Answers one token-service request of `env` by its declared operation; OAuth endpoints answer OAuth JSON, the rest problems. */
  return async function handle(
    request: IncomingRequest,
    url: URL,
    env: EnvironmentRow,
    path: TokenServicePath,
    attribution: Attribution = {},
  ): Promise<PlainResponse> {
    const operation = tokenOperation(path);
    if (operation.method === "GET") {
      if (request.method !== "GET" && request.method !== "HEAD") {
        throw problem("method-not-allowed", { detail: `${path} accepts GET only.`, headers: { allow: "GET, HEAD" } });
      }
      return endpoints[operation.handle](request, url, env, attribution);
    }
    try {
      // The OAuth endpoints answer every refusal, a wrong method included, in RFC 6749's JSON.
      if (request.method !== operation.method) {
        throw new OAuthError("invalid_request", `This endpoint accepts ${operation.method} only.`, { status: 405, headers: { allow: operation.method } });
      }
      return await endpoints[operation.handle](request, url, env, attribution);
    } catch (error) {
      if (operation.handle === "token") metrics.tokenRefused(env.slug, error instanceof OAuthError ? error.error : toProblem(error).code);
      if (error instanceof OAuthError) {
        attribution.problem = error.error;
        return oauthErrorResponse(error);
      }
      throw error;
    }
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
