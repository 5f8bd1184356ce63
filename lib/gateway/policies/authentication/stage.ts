import "server-only";
import type { IncomingRequest } from "../../../http/message";
import { problem, type ProblemError, toProblem } from "../../../http/problem";
import { TokenRejection, type VerifiedAccessToken } from "../../../oauth/access-tokens";
import type { ApiKeyStates } from "../../../oauth/api-key-states";
import type { CredentialStates } from "../../../oauth/credential-states";
import type { LastUsedMarks } from "../../../oauth/last-used-marks";
import type { RevocationList } from "../../../oauth/revoked-tokens";
import type { TokenVerifier } from "../../../oauth/token-verifier";
import type { GatewayEnvironment } from "../../directory";
import { type Authenticated, PASS, type Stage } from "../../pipeline";
import { createKeyAuthenticator, isKeyBearer, presentedKey } from "./api-key";
import { apiKeyChallenge, bearerChallenge } from "./bearer-challenge";
import { type AuthenticationMethod, DEFAULT_AUTHENTICATION } from "./schema";
import type { DpopBinding } from "./dpop";

/** RFC 6750 §2.1: `Bearer` and a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
/** RFC 9449 §7.1: `DPoP` and the token, with a proof in the DPoP header. */
const DPOP = /^DPoP +([A-Za-z0-9\-._~+/]+=*) *$/i;

type InvalidTokenCode = TokenRejection["code"] | "token-revoked";

function invalidToken(env: GatewayEnvironment, code: InvalidTokenCode, detail: string, extensions?: Record<string, unknown>): ProblemError {
  return problem(code, {
    detail,
    extensions,
    headers: { "www-authenticate": bearerChallenge(env.slug, { error: "invalid_token", error_description: detail }) },
  });
}

/** The caller, or the refusal naming the check the token failed; the client a verified signature names either way. */
export type AuthenticationVerdict = { caller: Authenticated; clientId: string } | { refusal: ProblemError; clientId?: string };

/** `resource`: the MCP server called, or whose tool call this is; an agent's token is accepted there only (RFC 8707). */
export type Authenticator = (
  request: IncomingRequest,
  env: GatewayEnvironment,
  methods?: readonly AuthenticationMethod[],
  resource?: string,
) => Promise<AuthenticationVerdict>;

/**
 * Authentication's checks, any of the API's methods (decision 064): a call is let through when one
 * method its request presents succeeds, tried in the API's order; refused otherwise with the first
 * presented method's refusal, or `token-missing` when it presents none, with one `WWW-Authenticate`
 * per method the API accepts. A token's checks: header well formed, token verified (signature,
 * algorithm, typ, iss, aud, exp/nbf), jti not revoked, credential still active. A key's
 * (`api-key.ts`): format and checksum before any lookup, then the key and its credential.
 * Each failure names its check in the problem type.
 */
export function createAuthenticator(deps: {
  verify: TokenVerifier;
  revocations: RevocationList;
  states: CredentialStates;
  lastUsed: LastUsedMarks;
  dpop: DpopBinding;
  apiKeys: ApiKeyStates;
}): Authenticator {
  const byKey = createKeyAuthenticator(deps);
  const byToken = async (request: IncomingRequest, env: GatewayEnvironment, header: string, resource: string | undefined): Promise<AuthenticationVerdict> => {
    const dpopMatch = DPOP.exec(header);
    const match = dpopMatch ?? BEARER.exec(header);
    if (!match) {
      return {
        refusal: problem("token-malformed", {
          detail: "The Authorization header must be `Bearer <token>`.",
          errors: [{ in: "header", field: "authorization", message: "must be Bearer followed by one token" }],
          headers: { "www-authenticate": bearerChallenge(env.slug, { error: "invalid_request" }) },
        }),
      };
    }
    let token: VerifiedAccessToken;
    try {
      token = await deps.verify(env, match[1]!);
    } catch (error) {
      if (!(error instanceof TokenRejection)) throw error;
      return { clientId: error.clientId, refusal: invalidToken(env, error.code, error.detail, error.extensions) };
    }
    const { clientId } = token;
    if (token.resource !== undefined && token.resource !== resource) {
      return { clientId, refusal: invalidToken(env, "token-invalid", `The token was issued for the MCP server ${token.resource} and is accepted there only.`) };
    }
    if (await deps.revocations.isRevoked(token.jti)) {
      return { clientId, refusal: invalidToken(env, "token-revoked", "The token has been revoked.") };
    }
    const credential = await deps.states.get(clientId);
    if (!credential?.active || credential.environmentId !== env.id) {
      return { clientId, refusal: invalidToken(env, "token-revoked", "The client credential of this token has been revoked.") };
    }
    const unbound = await deps.dpop({ request, env, token: match[1]!, verified: token, scheme: dpopMatch ? "DPoP" : "Bearer" });
    if (unbound) return { clientId, refusal: unbound };
    deps.lastUsed.mark(credential.id);
    if (token.consentId) deps.lastUsed.markConsent(token.consentId);
    return { clientId, caller: { token, credential } };
  };
  return async (request, env, methods = DEFAULT_AUTHENTICATION, resource) => {
    const header = request.headers.get("authorization");
    let refused: { verdict: AuthenticationVerdict; method: AuthenticationMethod } | undefined;
    for (const method of methods) {
      const presented = method === "apiKey" ? presentedKey(request, header) : header !== null && !isKeyBearer(header) ? header : undefined;
      if (presented === undefined) continue;
      const verdict = method === "apiKey" ? await byKey(presented, env) : await byToken(request, env, presented, resource);
      if (!("refusal" in verdict)) return verdict;
      refused ??= { verdict, method };
    }
    return withChallenges(refused ?? { verdict: { refusal: missing(methods) }, method: undefined }, env, methods);
  };
}

function missing(methods: readonly AuthenticationMethod[]): ProblemError {
  const ways = methods.map((method) =>
    method === "apiKey" ? "an API key as `X-API-Key: gk_…`" : "an access token from this environment's token endpoint as `Authorization: Bearer <token>`",
  );
  return problem("token-missing", { detail: `Send ${ways.join(", or ")}.` });
}

/** A refusal with one `WWW-Authenticate` per method the API accepts: the refused method's own challenge (with its error), the others' plain. */
function withChallenges(
  refused: { verdict: AuthenticationVerdict; method: AuthenticationMethod | undefined },
  env: GatewayEnvironment,
  methods: readonly AuthenticationMethod[],
): AuthenticationVerdict {
  const { verdict, method: refusedMethod } = refused;
  if (!("refusal" in verdict)) return verdict;
  const { refusal } = verdict;
  const own = refusal.headers?.["www-authenticate"];
  const challenges = methods.flatMap((method) => {
    if (method === refusedMethod && own !== undefined) return own;
    return method === "apiKey" ? apiKeyChallenge(env.slug) : bearerChallenge(env.slug);
  });
  const headers = Object.assign({}, refusal.headers, { "www-authenticate": challenges.length === 1 ? challenges[0]! : challenges });
  return { ...verdict, refusal: problem(refusal.code, { detail: refusal.detail, errors: refusal.errors, extensions: refusal.extensions, headers }) };
}

/**
 * Authentication's stage: every call to an API but a public proxied one carries a bearer token
 * of its environment; the token service's endpoints authenticate their clients themselves.
 */
export function createAuthenticationStage(authenticate: Authenticator): Stage {
  return ({ request, trace, at }) => {
    if (at.kind === "token-service" || (at.kind === "proxied" && at.api.isPublic)) return PASS;
    const span = trace.span?.stage("authenticate");
    const verdict = authenticate(request, at.env, at.api.authentication, request.mcpResource);
    if (!span) return verdict;
    return verdict.then(
      (decided) => {
        span.end("refusal" in decided ? decided.refusal.code : undefined);
        return decided;
      },
      (error: unknown) => {
        span.end(toProblem(error).code);
        throw error;
      },
    );
  };
}
