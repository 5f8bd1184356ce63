import "server-only";
import type { IncomingRequest } from "../../../http/message";
import { problem, type ProblemError, toProblem } from "../../../http/problem";
import { TokenRejection, type VerifiedAccessToken } from "../../../oauth/access-tokens";
import type { CredentialStates } from "../../../oauth/credential-states";
import type { LastUsedMarks } from "../../../oauth/last-used-marks";
import type { RevocationList } from "../../../oauth/revoked-tokens";
import type { TokenVerifier } from "../../../oauth/token-verifier";
import type { GatewayEnvironment } from "../../directory";
import { type Authenticated, PASS, type Stage } from "../../pipeline";
import { bearerChallenge } from "./bearer-challenge";

/** RFC 6750 §2.1: `Bearer` and a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

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

export type Authenticator = (request: IncomingRequest, env: GatewayEnvironment) => Promise<AuthenticationVerdict>;

/**
 * Authentication's checks: header present and well formed, token verified
 * (signature, algorithm, typ, iss, aud, exp/nbf), jti not revoked, credential
 * still active. Each failure names its check in the problem type.
 */
export function createAuthenticator(deps: {
  verify: TokenVerifier;
  revocations: RevocationList;
  states: CredentialStates;
  lastUsed: LastUsedMarks;
}): Authenticator {
  return async (request, env) => {
    const header = request.headers.get("authorization");
    if (header === null) {
      return {
        refusal: problem("token-missing", {
          detail: "Send an access token from this environment's token endpoint as `Authorization: Bearer <token>`.",
          headers: { "www-authenticate": bearerChallenge(env.slug) },
        }),
      };
    }
    const match = BEARER.exec(header);
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
    if (await deps.revocations.isRevoked(token.jti)) {
      return { clientId, refusal: invalidToken(env, "token-revoked", "The token has been revoked.") };
    }
    const credential = await deps.states.get(clientId);
    if (!credential?.active || credential.environmentId !== env.id) {
      return { clientId, refusal: invalidToken(env, "token-revoked", "The client credential of this token has been revoked.") };
    }
    deps.lastUsed.mark(credential.id);
    return { clientId, caller: { token, credential } };
  };
}

/**
 * Authentication's stage: every call to an API but a public proxied one carries a bearer token
 * of its environment; the token service's endpoints authenticate their clients themselves.
 */
export function createAuthenticationStage(authenticate: Authenticator): Stage {
  return async ({ request, trace, at }) => {
    if (at.kind === "token-service" || (at.kind === "proxied" && at.api.isPublic)) return PASS;
    const span = trace.span?.stage("authenticate");
    try {
      const verdict = await authenticate(request, at.env);
      span?.end("refusal" in verdict ? verdict.refusal.code : undefined);
      return verdict;
    } catch (error) {
      span?.end(toProblem(error).code);
      throw error;
    }
  };
}
