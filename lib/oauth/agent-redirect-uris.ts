/** Loopback hosts an agent on the developer's machine listens on (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export const MAX_REDIRECT_URI_LENGTH = 2000;

/** A redirect URI an agent may register: `http://` on a loopback host (any port) or `https://`, without a fragment or credentials. */
export function isAcceptableRedirectUri(value: string): boolean {
  if (value.length > MAX_REDIRECT_URI_LENGTH || !URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.hash !== "" || value.includes("#") || url.username !== "" || url.password !== "") return false;
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Whether `asked` is one of the registered URIs: exactly, except that a loopback URI's port may
 * differ, as RFC 8252 §7.3 asks, since an agent listens on whatever port is free.
 */
export function isRegisteredRedirectUri(asked: string, registered: readonly string[]): boolean {
  if (registered.includes(asked)) return true;
  if (!isAcceptableRedirectUri(asked)) return false;
  const url = new URL(asked);
  if (url.protocol !== "http:") return false;
  return registered.some((each) => {
    const known = new URL(each);
    known.port = url.port;
    return known.href === url.href;
  });
}

const AUTHORIZATION_PAGE = /^\/oauth\/[^/]+\/authorize$/;

/**
 * The origin the consent form's answer redirects to, for the page's CSP `form-action`, which
 * browsers apply to a form's redirects too: the asked redirect URI's, on the authorization page
 * only, when it is one an agent may register. The page checks that the agent registered it.
 */
export function consentRedirectOrigin(pathname: string, search: URLSearchParams): string | undefined {
  const asked = search.get("redirect_uri");
  if (!AUTHORIZATION_PAGE.test(pathname) || asked === null || !isAcceptableRedirectUri(asked)) return undefined;
  return new URL(asked).origin;
}
