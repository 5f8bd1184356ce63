/**
 * The Content-Security-Policy of portal pages. Scripts run only with this
 * response's nonce (Next puts it on its own scripts) or when loaded by such a
 * script ('strict-dynamic'), so no inline or injected script runs. Styles may be
 * inline: Swagger UI and React set style attributes. `next dev` also needs eval
 * for its refresh runtime; production never does. Images load from the portal itself, or
 * from `imageOrigins`: those of a logo or favicon its operators gave as a URL. Scripts connect
 * to the portal itself, or to `connectOrigins`: the gateway's, when it has one of its own, for
 * the Reference's "try it". Forms post to the portal itself, and the redirect that answers them
 * may lead to `formOrigins`: the agent's, on the consent page of an agent's authorization request.
 */
export function contentSecurityPolicy(
  nonce: string,
  options: {
    development: boolean;
    https: boolean;
    imageOrigins?: readonly string[];
    connectOrigins?: readonly string[];
    formOrigins?: readonly string[];
  },
): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...(options.imageOrigins ?? [])].join(" "),
    "font-src 'self' data:",
    ["connect-src 'self'", ...(options.connectOrigins ?? [])].join(" "),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    ["form-action 'self'", ...(options.formOrigins ?? [])].join(" "),
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Headers every portal response carries, whatever its type; HSTS only where the public origin is https. */
export function securityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()",
    "cross-origin-opener-policy": "same-origin",
    ...(options.https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** 128 random bits, base64: a CSP nonce for one response. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}
