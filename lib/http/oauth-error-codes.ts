/**
 * The RFC 6749 §5.2 error codes the token service answers, each with its HTTP
 * status, declared once: every `OAuthError`, the token endpoint's OpenAPI schema
 * and the try-it advice read them from here. Free of server-only imports: the
 * Reference tab's client code reads it too. Here in lib/http, not lib/oauth,
 * because the problem registry (`problem-types.ts`), which lib/oauth builds on, reads them too.
 */
export const OAUTH_ERROR_STATUS = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  temporarily_unavailable: 429,
  /** RFC 9449 §5: the DPoP proof sent to the token endpoint failed a check */
  invalid_dpop_proof: 400,
  /** RFC 9449 §8: the proof must carry the nonce the DPoP-Nonce header gives */
  use_dpop_nonce: 400,
  /** RFC 8707 §2: the resource asked for is not the one the grant is for */
  invalid_target: 400,
  /** RFC 7591 §3.2.2: a registration's redirect URI is not acceptable */
  invalid_redirect_uri: 400,
  /** RFC 7591 §3.2.2: another field of a registration is not acceptable */
  invalid_client_metadata: 400,
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERROR_STATUS;

export const OAUTH_ERROR_CODES = Object.keys(OAUTH_ERROR_STATUS) as [OAuthErrorCode, ...OAuthErrorCode[]];
