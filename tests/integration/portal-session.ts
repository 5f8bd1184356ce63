import type { TestServer } from "../support/server";

/** A signed-in portal user speaking HTTP: session cookie plus our Origin on mutations. */
export type PortalClient = {
  get(path: string): Promise<Response>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  put(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Any other method, sent like `post` */
  send(method: string, path: string, body?: unknown): Promise<Response>;
  /** An HTML form's POST (application/x-www-form-urlencoded), as a browser sends it from our own page */
  form(path: string, fields: Record<string, string>): Promise<Response>;
};

function cookiesFrom(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
}

/** next-auth's credentials callback, as the login form posts it. */
async function postCredentials(server: TestServer, email: string, password: string) {
  const csrf = await fetch(`${server.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesFrom(csrf);
  const callback = await fetch(`${server.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  return { jar, callback };
}

/** Signs in through next-auth's credentials callback; null when the sign-in was refused. */
export async function signIn(server: TestServer, email: string, password: string): Promise<PortalClient | null> {
  const { jar, callback } = await postCredentials(server, email, password);
  const session = cookiesFrom(callback).find((cookie) => cookie.startsWith("next-auth.session-token="));
  if (!session) return null;
  const cookie = [...jar, session].join("; ");
  return {
    get: (path) => fetch(`${server.url}${path}`, { headers: { cookie }, redirect: "manual" }),
    post: (path, body, headers = {}) => send("POST", path, body, headers),
    put: (path, body, headers = {}) => send("PUT", path, body, headers),
    send: (method, path, body) => send(method, path, body),
    form: (path, fields) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      }),
  };
  function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(`${server.url}${path}`, {
      method,
      redirect: "manual",
      headers: { cookie, origin: server.url, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}

/** The next-auth error code of a refused sign-in (CredentialsSignin, TooManyAttempts). */
export async function signInError(server: TestServer, email: string, password: string): Promise<string | null> {
  const { callback } = await postCredentials(server, email, password);
  const location = callback.headers.get("location") ?? ((await callback.json().catch(() => ({}))) as { url?: string }).url ?? "";
  return new URL(location, server.url).searchParams.get("error");
}

/** A user the test expects to get in; a refused sign-in fails the test here, not later. */
export async function signedIn(server: TestServer, email: string, password: string): Promise<PortalClient> {
  const client = await signIn(server, email, password);
  if (!client) throw new Error(`${email} could not sign in`);
  return client;
}
