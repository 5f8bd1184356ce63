import "server-only";
import type { IncomingRequest } from "../http/message";
import { problem, type ProblemError } from "../http/problem";
import { TokenRejection, type VerifiedAccessToken } from "../oauth/access-tokens";
import type { CredentialState, CredentialStates } from "../oauth/credential-states";
import type { RevocationList } from "../oauth/revoked-tokens";
import type { TokenVerifier } from "../oauth/token-verifier";
import type { LastUsedMarks } from "../oauth/last-used-marks";
import type { Attribution } from "../oauth/token-service";
import type { GatewayEnvironment } from "./directory";

export type Authenticated = { token: VerifiedAccessToken; credential: CredentialState };

/** RFC 6750 §2.1: `Bearer` and a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** RFC 6750 §3: auth-param values hold visible ASCII without `"` and `\`; anything else is dropped. */
function quoted(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "");
}

export function bearerChallenge(envSlug: string, params: Record<string, string> = {}): string {
  return [`Bearer realm="${quoted(envSlug)}"`, ...Object.entries(params).map(([name, value]) => `${name}="${quoted(value)}"`)].join(", ");
}

type InvalidTokenCode = TokenRejection["code"] | "token-revoked";

function invalidToken(env: GatewayEnvironment, code: InvalidTokenCode, detail: string, extensions?: Record<string, unknown>): ProblemError {
  return problem(code, {
    detail,
    extensions,
    headers: { "www-authenticate": bearerChallenge(env.slug, { error: "invalid_token", error_description: detail }) },
  });
}

export type Authenticator = (request: IncomingRequest, env: GatewayEnvironment, attribution?: Attribution) => Promise<Authenticated>;

/**
 * The authenticate stage: header present and well formed, token verified
 * (signature, algorithm, typ, iss, aud, exp/nbf), jti not revoked, credential
 * still active. Each failure names its check in the problem type.
 */
export function createAuthenticator(deps: {
  verify: TokenVerifier;
  revocations: RevocationList;
  states: CredentialStates;
  lastUsed: LastUsedMarks;
}): Authenticator {
  return async (request, env, attribution = {}) => {
    const header = request.headers.get("authorization");
    if (header === null) {
      throw problem("token-missing", {
        detail: "Send an access token from this environment's token endpoint as `Authorization: Bearer <token>`.",
        headers: { "www-authenticate": bearerChallenge(env.slug) },
      });
    }
    const match = BEARER.exec(header);
    if (!match) {
      throw problem("token-malformed", {
        detail: "The Authorization header must be `Bearer <token>`.",
        errors: [{ in: "header", field: "authorization", message: "must be Bearer followed by one token" }],
        headers: { "www-authenticate": bearerChallenge(env.slug, { error: "invalid_request" }) },
      });
    }
    let token: VerifiedAccessToken;
    try {
      token = await deps.verify(env, match[1]!);
    } catch (error) {
      if (!(error instanceof TokenRejection)) throw error;
      attribution.clientId = error.clientId;
      throw invalidToken(env, error.code, error.detail, error.extensions);
    }
    attribution.clientId = token.clientId;
    if (await deps.revocations.isRevoked(token.jti)) {
      throw invalidToken(env, "token-revoked", "The token has been revoked.");
    }
    const credential = await deps.states.get(token.clientId);
    if (!credential?.active || credential.environmentId !== env.id) {
      throw invalidToken(env, "token-revoked", "The client credential of this token has been revoked.");
    }
    deps.lastUsed.mark(credential.id);
    return { token, credential };
  };
}
