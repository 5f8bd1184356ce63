import "server-only";
import { ProblemError } from "../http/problem";
import type { Attribution, TokenService } from "../oauth/token-service";
import { type Decided, type Decision, type GatewayCall, type Located, PASS, type Stage } from "./pipeline";

/**
 * The stage where the gateway's own services answer: the token service its endpoints, which
 * name their client and OAuth error for the record, and a built-in API's operation its calls.
 * A proxied call passes on to its own policies.
 */
export function createServiceStage(tokenService: TokenService): Stage {
  return (call, decided) => (call.at.kind === "proxied" ? PASS : serve(tokenService, call, call.at, decided));
}

async function serve(
  tokenService: TokenService,
  { request, url, requestId }: GatewayCall,
  at: Exclude<Located, { kind: "proxied" }>,
  { caller }: Readonly<Decided>,
): Promise<Decision> {
  if (at.kind === "token-service") {
    const attribution: Attribution = {};
    try {
      const answer = await tokenService(request, url, at.env, at.servicePath, attribution);
      return { answer, clientId: attribution.clientId, problem: attribution.problem };
    } catch (error) {
      if (error instanceof ProblemError) return { clientId: attribution.clientId, refusal: error };
      throw error;
    }
  }
  const { operation } = at;
  if (operation instanceof ProblemError) return { refusal: operation };
  const client = caller && { clientId: caller.token.clientId, scopes: caller.token.scopes };
  if (!client) throw new Error(`A built-in call reached its operation unauthenticated: ${request.method} ${url.pathname}`);
  return { answer: await operation.route.handle({ request, url, params: operation.params, env: at.env, caller: client, requestId }) };
}
