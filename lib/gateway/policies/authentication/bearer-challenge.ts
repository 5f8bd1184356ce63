/** RFC 6750 §3: auth-param values hold visible ASCII without `"` and `\`; anything else is dropped. */
function quoted(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "");
}

/** The `WWW-Authenticate` of a refused bearer token (RFC 6750 §3), realm the environment. */
export function bearerChallenge(envSlug: string, params: Record<string, string> = {}): string {
  return [`Bearer realm="${quoted(envSlug)}"`, ...Object.entries(params).map(([name, value]) => `${name}="${quoted(value)}"`)].join(", ");
}
