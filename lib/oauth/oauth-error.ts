import { jsonPlainResponse, type PlainResponse } from "../http/message";
import { OAUTH_ERROR_STATUS, type OAuthErrorCode } from "../http/oauth-error-codes";

export type { OAuthErrorCode } from "../http/oauth-error-codes";

/**
 * A refusal of the request as HTTP rather than as OAuth keeps HTTP's own status
 * (405 for the method, 413 for the body's size), with `invalid_request`.
 */
type HttpRefusalStatus = 405 | 413;

/** An RFC 6749 §5.2 error: the token service's answers are OAuth JSON, not problem+json. Its status is the code's own. */
export class OAuthError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    options: { headers?: Record<string, string>; status?: HttpRefusalStatus } = {},
  ) {
    super(description);
    this.status = options.status ?? OAUTH_ERROR_STATUS[error];
    this.headers = options.headers ?? {};
  }
}

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

export function oauthJson(status: number, body: unknown, headers: Record<string, string> = {}): PlainResponse {
  return jsonPlainResponse(status, body, { ...NO_STORE, ...headers });
}

export function oauthErrorResponse(error: OAuthError): PlainResponse {
  return oauthJson(error.status, { error: error.error, error_description: error.description }, error.headers);
}
