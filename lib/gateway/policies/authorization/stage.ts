import { problem, ProblemError } from "../../../http/problem";
import type { GatewayApi, GatewayEnvironment } from "../../directory";
import { type Authenticated, type Decision, PASS, type Stage } from "../../pipeline";
import { bearerChallenge } from "../authentication/bearer-challenge";

function forbidden(
  env: GatewayEnvironment,
  code: "api-not-granted" | "scope-missing" | "subscription-required",
  detail: string,
  scope: string | undefined,
  extensions?: Record<string, unknown>,
): ProblemError {
  return problem(code, {
    detail,
    extensions,
    headers: { "www-authenticate": bearerChallenge(env.slug, { error: "insufficient_scope", ...(scope ? { scope } : {}) }) },
  });
}

/** The credential must hold a grant for the API. */
function apiNotGranted(env: GatewayEnvironment, api: GatewayApi, caller: Authenticated): ProblemError | undefined {
  if (caller.credential.grants.has(api.id)) return undefined;
  return forbidden(
    env,
    "api-not-granted",
    `The client ${caller.token.clientId} has no access to the API "${api.slug}" in "${env.slug}"; request access in the portal.`,
    api.scopes.join(" ") || undefined,
    { api: api.slug },
  );
}

/** An API that offers plans needs the subscription of the credential's application to one of them, as well as the grant. */
function notSubscribed(env: GatewayEnvironment, api: GatewayApi, caller: Authenticated): ProblemError | undefined {
  if (!api.offersPlans || caller.credential.subscriptions.has(api.id)) return undefined;
  return forbidden(
    env,
    "subscription-required",
    `The application of the client ${caller.token.clientId} has no subscription to a plan of "${api.slug}" in "${env.slug}"; subscribe on the API's page in the portal.`,
    undefined,
    { api: api.slug },
  );
}

/** The token must carry the operation's scope, and the grant must still include it. */
function scopeMissing(env: GatewayEnvironment, api: GatewayApi, caller: Authenticated, scope: string): ProblemError | undefined {
  if (caller.token.scopes.has(scope) && caller.credential.grants.get(api.id)?.has(scope)) return undefined;
  return forbidden(env, "scope-missing", `This operation needs the scope "${scope}", which the token does not carry.`, scope, {
    requiredScope: scope,
  });
}

/**
 * For a proxied API the gateway knows no operations; when the API defines
 * scopes, the token must carry at least one of them.
 */
function noScopeOfApi(env: GatewayEnvironment, api: GatewayApi, caller: Authenticated): ProblemError | undefined {
  if (api.scopes.length === 0) return undefined;
  const granted = caller.credential.grants.get(api.id);
  if (api.scopes.some((scope) => caller.token.scopes.has(scope) && granted?.has(scope))) return undefined;
  const wanted = api.scopes.join(" ");
  return forbidden(env, "scope-missing", `Calls to "${api.slug}" need one of the scopes "${wanted}", which the token does not carry.`, wanted, {
    requiredScope: wanted,
  });
}

const refused = (refusal: ProblemError | undefined): Decision => (refusal ? { refusal } : PASS);

/**
 * Authorization's stage: the authenticated caller's credential may call this API, with this
 * scope. A built-in call's operation is named only to a caller the API is granted to: its
 * 404 or 405 comes here, and its route, which the record keeps, once it is known.
 */
export const authorizationStage: Stage = ({ at }, { caller }) => {
  if (!caller || at.kind === "token-service") return PASS;
  const { env, api } = at;
  const notGranted = apiNotGranted(env, api, caller) ?? notSubscribed(env, api, caller);
  if (notGranted) return { refusal: notGranted };
  if (at.kind === "proxied") return refused(noScopeOfApi(env, api, caller));
  const { operation } = at;
  if (operation instanceof ProblemError) return { refusal: operation };
  return { route: operation.route.path, refusal: scopeMissing(env, api, caller, operation.route.scope) };
};
