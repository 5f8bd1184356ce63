import "server-only";
import type { BuiltInRoute } from "../built-in-apis/route";
import type { ApiKind } from "../db";
import type { IncomingRequest } from "../http/message";
import { problem, ProblemError, toProblem } from "../http/problem";
import { methodNotServed } from "../http/served-methods";
import { isTokenServicePath, type TokenServicePath } from "../oauth/token-service";
import type { Authenticated, Authenticator } from "./authenticate";
import { authorizeAnyScope, authorizeApi, authorizeScope } from "./authorize";
import type { GatewayApi, GatewayDirectory, GatewayEnvironment } from "./directory";
import { UNDECLARED_ROUTE } from "./document-routes";
import { type GatewayVersion, lifecycleDecision, selectVersion } from "./lifecycle";
import { apiList, environmentList } from "./not-found-hints";
import type { RequestTrace } from "./request-trace";
import type { RateLimitStage } from "./policies/rate-limit/stage";
import type { RouteTable } from "./route-match";
import { parseTarget } from "./target";

/** What the gateway learns of a request while admitting and serving it, for the record stage. */
export type Outcome = {
  env?: GatewayEnvironment;
  api?: string;
  /** set for the token service's endpoints, whose routes sit under the environment rather than an API */
  tokenService?: true;
  clientId?: string;
  route?: string;
  problem?: string;
  headers?: Record<string, string>;
  /** `Deprecation`, `Sunset` and `Link` of a deprecated version or operation, added to any answer */
  deprecation?: Record<string, string>;
  /** the request-validation errors of a call forwarded under `report`, as JSON text */
  validationErrors?: string;
};

/** What admission decided: which service answers the request, and for whom. */
export type Admitted =
  | { kind: "token-service"; env: GatewayEnvironment; servicePath: TokenServicePath }
  | { kind: "built-in"; env: GatewayEnvironment; api: GatewayApi; route: BuiltInRoute; params: Record<string, string>; caller: Authenticated }
  | {
      kind: "proxied";
      env: GatewayEnvironment;
      api: GatewayApi;
      /** the path after `/gw/{env}/{api}` */
      remainder: string;
      /** the template of the API's document the path matched (`proxiedRoute`) */
      route: string;
      /** null for a public API, whose calls carry no identity */
      caller: Authenticated | null;
    };

/** A call located before its caller is known, where a screen may refuse it: its API (none for the token service's endpoints) and a proxied call's route. */
export type LocatedCall = { env: GatewayEnvironment; api: GatewayApi | undefined; route: string | undefined };

export type AdmissionInput = {
  request: IncomingRequest;
  /** the canonical path */
  path: string;
  trace: RequestTrace;
  outcome: Outcome;
  /** runs once the API and, for a proxied one, the route are known, before the caller is authenticated; throws to refuse */
  screen?: (call: LocatedCall) => void;
};

export type Admission = (input: AdmissionInput) => Promise<Admitted>;

export type AdmissionDeps = {
  directory: GatewayDirectory;
  authenticate: Authenticator;
  rateLimit: RateLimitStage;
  routeTables: ReadonlyMap<ApiKind, RouteTable>;
  /** the portal's address, which the `Link` headers of deprecated versions point into */
  publicUrl: string;
};

function notFound(detail: string): ProblemError {
  return problem("not-found", { detail });
}

/** A built-in call's operation and parameters, or the refusal (404, 405, 400) for a path that names none. */
function matchBuiltIn(table: RouteTable, method: string, remainder: string): ReturnType<RouteTable> | ProblemError {
  try {
    return table(method, remainder);
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
}

/**
 * A proxied call's route: the template of its API's document that its path matches,
 * `(undeclared)` when the document declares no such path, `/*` for an API without one.
 */
export function proxiedRoute(version: GatewayVersion | undefined, remainder: string): string {
  return version?.routes ? (version.routes(remainder) ?? UNDECLARED_ROUTE) : "/*";
}

/**
 * The gateway's admission: the environment and API the path names, the version's life,
 * authenticate, authorize, rate-limit. Returns what it decided, or throws the refusal;
 * `outcome` holds what the record stage needs either way.
 */
export function createAdmission(deps: AdmissionDeps): Admission {
  const { directory, authenticate, routeTables } = deps;

  /** Takes the caller's budget: every answer carries the RateLimit headers, a spent budget is refused. */
  async function rateLimit(env: GatewayEnvironment, api: GatewayApi, caller: Authenticated, outcome: Outcome, trace: RequestTrace): Promise<void> {
    const verdict = await deps.rateLimit({
      env,
      api: api.slug,
      clientId: caller.token.clientId,
      credentialPolicy: caller.credential.rateLimit,
      span: trace.span,
    });
    outcome.headers = verdict.headers;
    if (verdict.refusal) throw verdict.refusal;
  }

  async function authenticateCaller(request: IncomingRequest, env: GatewayEnvironment, trace: RequestTrace, outcome: Outcome): Promise<Authenticated> {
    const stage = trace.span?.stage("authenticate");
    try {
      const caller = await authenticate(request, env, outcome);
      stage?.end();
      return caller;
    } catch (error) {
      stage?.end(toProblem(error).code);
      throw error;
    }
  }

  async function admitToApi(input: AdmissionInput, env: GatewayEnvironment, api: GatewayApi, remainder: string): Promise<Admitted> {
    const { request, trace, outcome } = input;
    if (api.kind === "TOKEN") throw notFound(`"${api.slug}" is served at ${new URL(request.url).origin}/gw/${env.slug}/oauth2/token.`);
    const version = selectVersion(api.versions, remainder);
    const table = routeTables.get(api.kind);
    // Both routes are known before the caller is, so a refusal carries the operation's deprecation too: a proxied
    // call's is its document's alone; a built-in call's is matched now, and its 404 or 405 waits for the caller.
    const builtIn = table && matchBuiltIn(table, request.method, remainder);
    if (api.kind === "PROXY") outcome.route = proxiedRoute(version, remainder);
    const route = builtIn ? (builtIn instanceof ProblemError ? undefined : builtIn.route.path) : outcome.route;
    const lifecycle = lifecycleDecision({ api, version, method: request.method, route, publicUrl: deps.publicUrl, now: Date.now() });
    outcome.deprecation = lifecycle.deprecation;
    if (lifecycle.refusal) throw lifecycle.refusal;
    input.screen?.({ env, api, route: outcome.route });
    // A public proxied API is open to anyone: no token, and so no client to grant, scope or rate-limit.
    if (api.kind === "PROXY" && api.isPublic) return { kind: "proxied", env, api, remainder, route: outcome.route!, caller: null };
    const caller = await authenticateCaller(request, env, trace, outcome);
    authorizeApi(env, api, caller);
    if (builtIn) {
      if (builtIn instanceof ProblemError) throw builtIn;
      outcome.route = builtIn.route.path;
      authorizeScope(env, api, caller, builtIn.route.scope);
      await rateLimit(env, api, caller, outcome, trace);
      return { kind: "built-in", env, api, route: builtIn.route, params: builtIn.params, caller };
    }
    if (api.kind !== "PROXY") throw notFound(`The API "${api.slug}" is not served by this gateway.`);
    authorizeAnyScope(env, api, caller);
    await rateLimit(env, api, caller, outcome, trace);
    return { kind: "proxied", env, api, remainder, route: outcome.route!, caller };
  }

  return async function admit(input) {
    const { request, path, outcome } = input;
    const notServed = methodNotServed(request.method);
    if (notServed) throw notServed;
    const target = parseTarget(path);
    if (!target) throw notFound(`Gateway URLs look like /gw/{environment}/{api}/... ${await environmentList(directory)}`);
    const env = await directory.environment(target.envSlug);
    if (!env) throw notFound(`There is no environment "${target.envSlug}". ${await environmentList(directory)}`);
    outcome.env = env;
    const servicePath = `${target.apiSlug}${target.remainder}`;
    if (target.apiSlug === "oauth2" || target.apiSlug === ".well-known") {
      // Usage is charted per catalog API, and the token endpoints are the environment's token API.
      outcome.api = (await directory.apis(env.id)).find((api) => api.kind === "TOKEN")?.slug ?? "token-service";
      if (!isTokenServicePath(servicePath)) throw notFound(`The token service of "${env.slug}" has no endpoint /${servicePath}.`);
      outcome.tokenService = true;
      outcome.route = `/${servicePath}`;
      input.screen?.({ env, api: undefined, route: outcome.route });
      return { kind: "token-service", env, servicePath };
    }
    const api = target.apiSlug ? await directory.api(env.id, target.apiSlug) : undefined;
    if (!api) {
      const missing = target.apiSlug ? `There is no API "${target.apiSlug}" in environment "${env.slug}".` : `Name an API: /gw/${env.slug}/{api}/...`;
      throw notFound(`${missing} ${apiList(env, await directory.apis(env.id))}`);
    }
    outcome.api = api.slug;
    return admitToApi(input, env, api, target.remainder);
  };
}
