/** An absolute http(s) URL written with its scheme and a host. */
const ABSOLUTE_HTTP = /^https?:\/\/[^/\\]/i;

/**
 * Where an upstream's `Location` or `Content-Location` points, as the client is to see
 * it (nginx's `proxy_redirect default`). A reference that resolves into the target's
 * base path becomes the same path under the API's gateway path (`apiPath`, path-absolute,
 * so it holds on whichever origin the client called). An absolute http(s) URL of another
 * host passes as it is: a redirect to an identity provider is the API's business. Null
 * for everything else: a path of the target outside its base path, another scheme, and a
 * protocol-relative `//host/…` (or `/\host`), which the client would resolve against the
 * portal's origin and scheme rather than the upstream's.
 */
export function gatewayLocation(value: string, input: { targetOrigin: string; basePath: string; upstreamUrl: string; apiPath: string }): string | null {
  let resolved: URL;
  try {
    resolved = new URL(value, input.upstreamUrl);
  } catch {
    return null;
  }
  if (resolved.origin !== input.targetOrigin) return ABSOLUTE_HTTP.test(value) ? value : null;
  const { basePath } = input;
  const path = resolved.pathname;
  if (basePath !== "" && path !== basePath && !path.startsWith(`${basePath}/`)) return null;
  return `${input.apiPath}${path.slice(basePath.length)}${resolved.search}${resolved.hash}`;
}
