/**
 * Hands a bearer token to the Reference's Swagger UI. Swagger UI loads lazily,
 * so a token handed over before it listens is kept until it asks for it.
 */
const AUTHORIZE_EVENT = "gatehouse:authorize";

let pendingToken: string | null = null;

export function authorizeReference(token: string) {
  pendingToken = token;
  window.dispatchEvent(new CustomEvent(AUTHORIZE_EVENT, { detail: { token } }));
}

function take(token: string | null, apply: (token: string) => void) {
  pendingToken = null;
  if (token) apply(token);
}

/** Calls `apply` with the token handed over before the listener existed, then with every later one. */
export function onReferenceAuthorize(apply: (token: string) => void): () => void {
  take(pendingToken, apply);
  function listener(event: Event) {
    const token = (event as CustomEvent<{ token?: unknown }>).detail?.token;
    take(typeof token === "string" ? token : null, apply);
  }
  window.addEventListener(AUTHORIZE_EVENT, listener);
  return () => window.removeEventListener(AUTHORIZE_EVENT, listener);
}

/** Calls `notice` whenever a test token is handed to the Reference, leaving the token to Swagger UI. */
export function onTestTokenApplied(notice: () => void): () => void {
  window.addEventListener(AUTHORIZE_EVENT, notice);
  return () => window.removeEventListener(AUTHORIZE_EVENT, notice);
}
