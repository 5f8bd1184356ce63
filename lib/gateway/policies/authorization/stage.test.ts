import { describe, expect, it } from "vitest";
import type { BuiltInRoute } from "../../../built-in-apis/route";
import { problem } from "../../../http/problem";
import type { GatewayApi, GatewayEnvironment } from "../../directory";
import type { Authenticated, BuiltInOperation, Decision, GatewayCall, Located } from "../../pipeline";
import { authorizationStage } from "./stage";

const env = { id: "env_qa", slug: "sso-qa" } as GatewayEnvironment;
const api = (fields: Partial<GatewayApi> = {}) => ({ id: "api_orders", slug: "orders", kind: "PROXY", isPublic: false, scopes: [], ...fields }) as GatewayApi;

/** A caller whose credential is granted `grants` (API id → scopes) and whose token carries `scopes`. */
function caller(grants: Record<string, string[]>, scopes: string[] = []): Authenticated {
  return {
    token: { clientId: "gci_one", scopes: new Set(scopes) },
    credential: { grants: new Map(Object.entries(grants).map(([id, granted]) => [id, new Set(granted)])) },
  } as unknown as Authenticated;
}

function decide(at: Located, who: Authenticated | undefined): Decision {
  return authorizationStage({ at } as GatewayCall, { caller: who }, () => Promise.reject(new Error("authorization answers nothing"))) as Decision;
}

const proxied = (of: GatewayApi): Located => ({ kind: "proxied", env, api: of, version: undefined, remainder: "/orders", route: "/*" });
const builtIn = (operation: BuiltInOperation): Located => ({
  kind: "built-in",
  env,
  api: api({ kind: "NOTIFICATIONS" }),
  version: undefined,
  remainder: "/x",
  operation,
});
const route = { path: "/v1/notifications", method: "GET", scope: "notifications:read" } as unknown as BuiltInRoute;

describe("authorizationStage", () => {
  it("lets a call without a caller pass: the token service's and a public API's", () => {
    expect(decide(proxied(api({ isPublic: true })), undefined)).toEqual({});
  });

  it("refuses 403 api-not-granted before anything else, a built-in path that names no operation included", () => {
    const notFound = problem("not-found", { detail: "There is no operation at /x." });
    for (const at of [proxied(api()), builtIn(notFound)]) expect(decide(at, caller({})).refusal?.code).toBe("api-not-granted");
  });

  it("names a built-in call's 404 or 405 only to a caller the API is granted to", () => {
    const notAllowed = problem("method-not-allowed", { detail: "/x accepts GET, HEAD." });
    expect(decide(builtIn(notAllowed), caller({ api_orders: [] })).refusal).toBe(notAllowed);
  });

  it("decides a built-in call's route with its scope check, so that a refused call is recorded under its operation", () => {
    const operation = { route, params: {} };
    const refused = decide(builtIn(operation), caller({ api_orders: ["notifications:read"] }));
    expect(refused).toMatchObject({ route: "/v1/notifications", refusal: { code: "scope-missing" } });
    const allowed = decide(builtIn(operation), caller({ api_orders: ["notifications:read"] }, ["notifications:read"]));
    expect(allowed).toEqual({ route: "/v1/notifications", refusal: undefined });
  });

  it("asks a proxied call's token for one of the API's scopes that its grant still holds", () => {
    const scoped = api({ scopes: ["orders:read", "orders:write"] });
    expect(decide(proxied(scoped), caller({ api_orders: ["orders:read"] }, ["orders:write"])).refusal?.code).toBe("scope-missing");
    expect(decide(proxied(scoped), caller({ api_orders: ["orders:read"] }, ["orders:read"]))).toEqual({});
  });
});
