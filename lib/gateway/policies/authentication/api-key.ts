import "server-only";
import type { IncomingRequest } from "../../../http/message";
import { problem, type ProblemError } from "../../../http/problem";
import type { VerifiedAccessToken } from "../../../oauth/access-tokens";
import { isWellFormedApiKey } from "../../../oauth/api-key-format";
import type { ApiKeyStates } from "../../../oauth/api-key-states";
import type { CredentialState, CredentialStates } from "../../../oauth/credential-states";
import type { LastUsedMarks } from "../../../oauth/last-used-marks";
import type { GatewayEnvironment } from "../../directory";
import type { Authenticated } from "../../pipeline";
import { apiKeyChallenge } from "./bearer-challenge";

const KEY_BEARER = /^Bearer +(gk_\S*) *$/i;

/** A key's caller, or its refusal: the shape of the stage's `AuthenticationVerdict`, which imports this module. */
type KeyVerdict = { caller: Authenticated; clientId: string } | { refusal: ProblemError; clientId?: string };

/** An Authorization header that carries an API key rather than a token. */
export function isKeyBearer(header: string): boolean {
  return KEY_BEARER.test(header);
}

/**
 * The key a request presents: `X-API-Key`, else `Authorization: Bearer gk_…`. A key in the query
 * string is never read: URLs reach logs, histories and Referer headers (decision 064).
 */
export function presentedKey(request: IncomingRequest, authorization: string | null): string | undefined {
  const header = request.headers.get("x-api-key");
  if (header !== null) return header.trim();
  return authorization === null ? undefined : KEY_BEARER.exec(authorization)?.[1];
}

function refused(env: GatewayEnvironment, code: "api-key-invalid" | "api-key-expired", detail: string, clientId?: string): KeyVerdict {
  const refusal: ProblemError = problem(code, {
    detail,
    headers: { "www-authenticate": apiKeyChallenge(env.slug, { error: "invalid_key", error_description: detail }) },
  });
  return clientId === undefined ? { refusal } : { refusal, clientId };
}

/** Every scope the credential holds for any API: what a key may use, as a token asked for all of them would. */
const scopesOf = new WeakMap<CredentialState, ReadonlySet<string>>();
function grantedScopes(credential: CredentialState): ReadonlySet<string> {
  let scopes = scopesOf.get(credential);
  if (!scopes) {
    scopes = new Set([...credential.grants.values()].flatMap((granted) => [...granted]));
    scopesOf.set(credential, scopes);
  }
  return scopes;
}

/**
 * A key's checks: format and checksum first, with no lookup, then the key (kept by hash, as
 * credential states are), its expiry, and its credential's state from the credential states a
 * token's call reads: active, and of the environment called. The caller it lets through has its
 * credential's grants and scopes.
 */
export function createKeyAuthenticator(deps: {
  apiKeys: ApiKeyStates;
  states: CredentialStates;
  lastUsed: LastUsedMarks;
}): (key: string, env: GatewayEnvironment) => Promise<KeyVerdict> {
  return async (key, env) => {
    if (!isWellFormedApiKey(key)) return refused(env, "api-key-invalid", "The API key's format or checksum is wrong.");
    const row = await deps.apiKeys.get(key);
    if (!row) return refused(env, "api-key-invalid", "No active API key matches this one.");
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) {
      return refused(env, "api-key-expired", `The API key ending in ${key.slice(-4)} expired at ${row.expiresAt.toISOString()}.`, row.clientId);
    }
    const credential = await deps.states.get(row.clientId);
    if (!credential?.active) return refused(env, "api-key-invalid", "The credential of this API key has been revoked.", row.clientId);
    if (credential.environmentId !== env.id)
      return refused(env, "api-key-invalid", `This API key belongs to another environment than "${env.slug}".`, row.clientId);
    deps.lastUsed.mark(credential.id);
    const scopes = grantedScopes(credential);
    const token: VerifiedAccessToken = {
      clientId: row.clientId,
      scopes,
      scope: [...scopes].join(" "),
      jti: row.id,
      issuedAt: 0,
      expiresAt: row.expiresAt ? Math.floor(row.expiresAt.getTime() / 1000) : Number.MAX_SAFE_INTEGER,
      issuer: "",
      audience: "",
      envSlug: env.slug,
    };
    return { clientId: row.clientId, caller: { token, credential } };
  };
}
