import { THEME_COOKIE } from "../../../branding/theme";

/**
 * The portal's own cookies: next-auth's session, CSRF and callback cookies (with
 * their `__Secure-` and `__Host-` forms) and the theme; and any `__Host-` or
 * `__Secure-` cookie, whose prefix promises the browser it came from the origin
 * itself. Names are compared without case, as browsers compare the prefixes.
 */
export function isPortalCookie(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("next-auth.") || lower.startsWith("__host-") || lower.startsWith("__secure-") || lower === THEME_COOKIE;
}

/** A cookie's name: what comes before its first `=`; a pair without one has an empty name. */
function cookieName(pair: string): string {
  const equals = pair.indexOf("=");
  return equals === -1 ? "" : pair.slice(0, equals).trim();
}

/** The Cookie header without the portal's cookies; null when none of the client's is left for the upstream. */
export function withoutPortalCookies(header: string): string | null {
  const kept = header
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair !== "" && !isPortalCookie(cookieName(pair)));
  return kept.length === 0 ? null : kept.join("; ");
}

/**
 * An upstream's Set-Cookie confined to the API's gateway path, as nginx's
 * `proxy_cookie_path` confines it: `Path` becomes `apiPath`, `Domain` goes, the
 * other attributes stay. A cookie named like one of the portal's is dropped (null),
 * so no upstream can set or overwrite the portal's session; so is a nameless one,
 * whose value a browser would read as a name.
 */
export function confinedSetCookie(value: string, apiPath: string): string | null {
  const [pair = "", ...attributes] = value.split(";");
  const name = cookieName(pair);
  if (name === "" || isPortalCookie(name)) return null;
  const kept = attributes.map((attribute) => attribute.trim()).filter((attribute) => !/^(path|domain)\s*(=|$)/i.test(attribute) && attribute !== "");
  return [pair.trim(), ...kept, `Path=${apiPath}`].join("; ");
}
