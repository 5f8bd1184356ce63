import { problem } from "../http/problem";
import type { Authenticated } from "./authenticate";
import { bearerChallenge } from "./authenticate";
import type { GatewayApi, GatewayEnvironment } from "./directory";

function forbidden(
  env: GatewayEnvironment,
  code: "api-not-granted" | "scope-missing",
  detail: string,
  scope: string | undefined,
  extensions?: Record<string, unknown>,
) {
  return problem(code, {
    detail,
    extensions,
    headers: { "www-authenticate": bearerChallenge(env.slug, { error: "insufficient_scope", ...(scope ? { scope } : {}) }) },
  });
}

/** The authorize stage, part one: the credential must hold a grant for the API. */
export function authorizeApi(env: GatewayEnvironment, api: GatewayApi, caller: Authenticated): void {
  if (caller.credential.grants.has(api.id)) return;
  throw forbidden(
    env,
    "api-not-granted",
    `The client ${caller.token.clientId} has no access to the API "${api.slug}" in "${env.slug}"; request access in the portal.`,
    api.scopes.join(" ") || undefined,
    { api: api.slug },
  );
}

/** Part two: the token must carry the operation's scope, and the grant must still include it. */
export function authorizeScope(env: GatewayEnvironment, api: GatewayApi, caller: Authenticated, scope: string): void {
  if (caller.token.scopes.has(scope) && caller.credential.grants.get(api.id)?.has(scope)) return;
  throw forbidden(env, "scope-missing", `This operation needs the scope "${scope}", which the token does not carry.`, scope, {
    requiredScope: scope,
  });
}

/**
 * For a proxied API the gateway knows no operations; when the API defines
 * scopes, the token must carry at least one of them.
 */
export function authorizeAnyScope(env: GatewayEnvironment, api: GatewayApi, caller: Authenticated): void {
  if (api.scopes.length === 0) return;
  const granted = caller.credential.grants.get(api.id);
  if (api.scopes.some((scope) => caller.token.scopes.has(scope) && granted?.has(scope))) return;
  const wanted = api.scopes.join(" ");
  throw forbidden(env, "scope-missing", `Calls to "${api.slug}" need one of the scopes "${wanted}", which the token does not carry.`, wanted, {
    requiredScope: wanted,
  });
}
