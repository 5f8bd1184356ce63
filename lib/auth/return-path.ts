const BASE = "http://gatehouse.invalid";

/**
 * Only same-site paths. The value is resolved the way a browser would (which
 * drops tabs and newlines, so `/\t/evil.example` means `//evil.example`) and must
 * stay on our origin; anything else falls back to Settings.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || /[\u0000-\u001f\\]/.test(value)) return "/settings";
  let resolved: URL;
  try {
    resolved = new URL(value, BASE);
  } catch {
    return "/settings";
  }
  if (resolved.origin !== BASE) return "/settings";
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
