import "server-only";

/** next-auth's CSRF cookie: plain on http origins, `__Host-` prefixed on https ones. Its value is `<token>|<hash of token and secret>`. */
const CSRF_TOKEN_COOKIES = ["next-auth.csrf-token", "__Host-next-auth.csrf-token"] as const;

type CookieReader = { get(name: string): { value: string } | undefined };

/**
 * The token a form posts to next-auth's endpoints, read from the visitor's own CSRF cookie, so a
 * plain HTML form can sign out without next-auth's client script. next-auth checks it against the
 * cookie's hash; without a cookie there is no token, and next-auth answers with its confirmation page.
 */
export function csrfTokenFromCookies(cookies: CookieReader): string | undefined {
  for (const name of CSRF_TOKEN_COOKIES) {
    const token = cookies.get(name)?.value.split("|")[0];
    if (token) return token;
  }
  return undefined;
}
