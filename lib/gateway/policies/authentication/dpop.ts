import "server-only";
import type { IncomingRequest } from "../../../http/message";
import { problem, type ProblemError } from "../../../http/problem";
import type { VerifiedAccessToken } from "../../../oauth/access-tokens";
import { DPOP_ALGORITHMS, DpopRejection, type DpopNonces, type DpopVerifier } from "../../../oauth/dpop";
import type { GatewayEnvironment } from "../../directory";
import { dpopChallenge } from "./bearer-challenge";

export type DpopBinding = (input: {
  request: IncomingRequest;
  env: GatewayEnvironment;
  /** the access token as sent */
  token: string;
  verified: VerifiedAccessToken;
  scheme: "Bearer" | "DPoP";
}) => Promise<ProblemError | undefined>;

function proofRefusal(check: string, detail: string): ProblemError {
  return problem("dpop-proof-invalid", {
    detail,
    extensions: { check },
    headers: { "www-authenticate": dpopChallenge(DPOP_ALGORITHMS, { error: "invalid_dpop_proof", error_description: detail }) },
  });
}

/**
 * The DPoP checks of a call (RFC 9449 §7): a token bound to a key (`cnf.jkt`) comes as
 * `Authorization: DPoP` with one proof of that key for this method and public URL, and never as
 * Bearer; a bearer token does not come as DPoP. Bearer tokens, the portal's test tokens among
 * them, pass unchecked.
 */
export function createDpopBinding(deps: {
  verify: DpopVerifier;
  nonces: DpopNonces;
  /** the URL the client called: the gateway's public URL and the path, without the query */
  publicUrlOf: (request: IncomingRequest) => string;
}): DpopBinding {
  return async ({ request, env, token, verified, scheme }) => {
    if (scheme === "Bearer") {
      if (verified.jkt === undefined) return undefined;
      const detail = "The token is bound to a DPoP key: send it as `Authorization: DPoP <token>` with a DPoP proof.";
      return problem("dpop-token-bound", {
        detail,
        headers: { "www-authenticate": dpopChallenge(DPOP_ALGORITHMS, { error: "invalid_token", error_description: detail }) },
      });
    }
    if (verified.jkt === undefined) return proofRefusal("jkt", "The token is not bound to a DPoP key: send it as `Authorization: Bearer <token>`.");
    const proof = request.headers.get("dpop");
    if (proof === null) return proofRefusal("header", "Send one DPoP header with a proof for this call.");
    try {
      await deps.verify({
        proof,
        method: request.method,
        url: deps.publicUrlOf(request),
        accessToken: token,
        jkt: verified.jkt,
        nonce: env.dpopNonce ? { nonces: deps.nonces, scope: env.id } : undefined,
      });
      return undefined;
    } catch (error) {
      if (!(error instanceof DpopRejection)) throw error;
      if (error.check !== "nonce") return proofRefusal(error.check, error.detail);
      return problem("dpop-nonce-required", {
        detail: error.detail,
        headers: {
          "www-authenticate": dpopChallenge(DPOP_ALGORITHMS, { error: "use_dpop_nonce", error_description: error.detail }),
          "dpop-nonce": deps.nonces.current(env.id),
        },
      });
    }
  };
}
