import { jsonPlainResponse, type PlainResponse } from "../http/message";
import type { OAUTH_ERROR_CODES } from "./schemas";

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** An RFC 6749 §5.2 error: the token service's answers are OAuth JSON, not problem+json. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

export function oauthJson(status: number, body: unknown, headers: Record<string, string> = {}): PlainResponse {
  return jsonPlainResponse(status, body, { ...NO_STORE, ...headers });
}

export function oauthErrorResponse(error: OAuthError): PlainResponse {
  return oauthJson(error.status, { error: error.error, error_description: error.description }, error.headers);
}
