const BASE = "http://gatehouse.invalid";
const FALLBACK = "/settings";
/** Longer return paths are refused rather than echoed into a cookie or a Location header. */
const MAX_RETURN_PATH = 2048;

/**
 * Only same-site paths. The value is resolved the way a browser would (which
 * drops tabs and newlines, so `/\t/evil.example` means `//evil.example`) and must
 * stay on our origin; anything else falls back to Settings.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || value.length > MAX_RETURN_PATH || !value.startsWith("/") || /[\u0000-\u001f\\]/.test(value)) return FALLBACK;
  let resolved: URL;
  try {
    resolved = new URL(value, BASE);
  } catch {
    return FALLBACK;
  }
  if (resolved.origin !== BASE) return FALLBACK;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/** Where a sign-in without a return path lands: admins in the admin console, everyone else in Settings. */
export function landingPath(role: string): string {
  return role === "ADMIN" ? "/admin" : FALLBACK;
}

/**
 * next-auth's `redirect` callback: an absolute URL on our own origin or a
 * same-site path, anything else (backslashes, `javascript:`, other origins,
 * values no URL parser accepts) becomes the same-origin fallback instead of an error.
 */
export function safeRedirectUrl(url: unknown, baseUrl: string): string {
  const origin = new URL(baseUrl).origin;
  const path = typeof url === "string" && (url === origin || url.startsWith(`${origin}/`)) ? url.slice(origin.length) || "/" : url;
  return `${origin}${safeReturnPath(path)}`;
}

/** next-auth's callback URL cookie, plain and `__Secure-` prefixed. */
export const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"] as const;
