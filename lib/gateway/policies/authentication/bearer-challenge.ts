/** RFC 6750 §3: auth-param values hold visible ASCII without `"` and `\`; anything else is dropped. */
function quoted(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "");
}

/** The `WWW-Authenticate` of a refused bearer token (RFC 6750 §3), realm the environment. */
export function bearerChallenge(envSlug: string, params: Record<string, string> = {}): string {
  return [`Bearer realm="${quoted(envSlug)}"`, ...Object.entries(params).map(([name, value]) => `${name}="${quoted(value)}"`)].join(", ");
}

/** The `WWW-Authenticate` of a refused DPoP call (RFC 9449 §7.1): the algorithms proofs may use, and the error. */
export function dpopChallenge(algorithms: readonly string[], params: Record<string, string>): string {
  return [`DPoP algs="${quoted(algorithms.join(" "))}"`, ...Object.entries(params).map(([name, value]) => `${name}="${quoted(value)}"`)].join(", ");
}

/** The `WWW-Authenticate` of an API that takes API keys: the scheme names the method, `header` where the key goes (it may also go as a bearer token). */
export function apiKeyChallenge(envSlug: string, params: Record<string, string> = {}): string {
  return [`ApiKey realm="${quoted(envSlug)}", header="X-API-Key"`, ...Object.entries(params).map(([name, value]) => `${name}="${quoted(value)}"`)].join(", ");
}
