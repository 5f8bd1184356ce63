import type { IncomingRequest, PlainResponse } from "../http/message";
import type { ProblemError } from "../http/problem";
import type { VerifiedAccessToken } from "../oauth/access-tokens";
import type { CredentialState } from "../oauth/credential-states";
import type { TokenServicePath } from "../oauth/token-service";
import type { GatewayApi, GatewayEnvironment } from "./directory";
import type { WebsocketPolicy } from "./policies/websocket/schema";
import type { RequestTrace } from "./request-trace";
import type { RouteTable } from "./route-match";
import type { GatewayVersion } from "./versions";

/** A caller authentication let through: its verified token and the credential behind it. */
export type Authenticated = { token: VerifiedAccessToken; credential: CredentialState };

/** A built-in call's operation and parameters, or the refusal (404, 405, 400) for a path that names none. */
export type BuiltInOperation = ReturnType<RouteTable> | ProblemError;

/** Where a call's path leads, once its environment, API and route are known (`lib/gateway/locate.ts`). */
export type Located =
  | { kind: "token-service"; env: GatewayEnvironment; servicePath: TokenServicePath }
  | {
      kind: "built-in";
      env: GatewayEnvironment;
      api: GatewayApi;
      version: GatewayVersion | undefined;
      remainder: string;
      operation: BuiltInOperation;
    }
  | {
      kind: "proxied";
      env: GatewayEnvironment;
      api: GatewayApi;
      version: GatewayVersion | undefined;
      /** the path after `/gw/{env}/{api}` */
      remainder: string;
      /** the template of the API's document the path matched (`proxiedRoute`) */
      route: string;
    };

/** A located call, as every stage reads it. */
export type GatewayCall = {
  request: IncomingRequest;
  url: URL;
  /** the canonical path */
  path: string;
  requestId: string;
  trace: RequestTrace;
  at: Located;
};

/** What the stages of a call decided, collected by the composer in the order they ran; the record is built from it. */
export type Decided = {
  env?: GatewayEnvironment;
  api?: string;
  /** set for the token service's endpoints, whose routes sit under the environment rather than an API */
  tokenService?: true;
  route?: string;
  clientId?: string;
  /** who the caller is; unset for a public API's calls, which carry no identity */
  caller?: Authenticated;
  /** fields every answer carries but a 429, which has its own (the RateLimit headers) */
  headers?: Record<string, string>;
  /** `Deprecation`, `Sunset` and `Link` of a deprecated version or operation, added to any answer */
  deprecation?: Record<string, string>;
  /** the request-validation errors of a call forwarded under `report`, as JSON text */
  validationErrors?: string;
  /** the client's body, read whole by request validation: forwarded as read */
  body?: Uint8Array;
  /** the WebSocket policy of a handshake's route */
  websocket?: WebsocketPolicy;
  /** the token endpoint's OAuth error, an answer rather than a refusal */
  problem?: string;
};

/** What one stage decided: facts for the stages after it and the record, and an answer or a refusal, either of which ends the call. */
export type Decision = Decided & { answer?: PlainResponse; refusal?: ProblemError };

/** The stages after one, run for `call`: what a stage that wraps them (the response cache) calls, for the answer they give. */
export type Rest = (call: GatewayCall) => Promise<PlainResponse>;

/** A policy's stage: decides from the call and what the stages before it decided, and writes nothing of either. */
export type Stage = (call: GatewayCall, decided: Readonly<Decided>, rest: Rest) => Decision | Promise<Decision>;

/** The decision of a stage that does not apply to a call, or lets it pass and adds nothing. */
export const PASS: Decision = Object.freeze({});

/** Adds a decision's facts to `decided`; throws its refusal; returns its answer. */
export function collect(decided: Decided, decision: Decision): PlainResponse | undefined {
  if (decision === PASS) return undefined;
  const { answer, refusal, ...facts } = decision;
  Object.assign(decided, facts);
  if (refusal) throw refusal;
  return answer;
}

/**
 * Runs `stages` from `from` in their order, collecting each decision into `decided`, up to the
 * first that answers (returned) or refuses (thrown); undefined when every stage let the call pass.
 */
export async function runStages(stages: readonly Stage[], call: GatewayCall, decided: Decided, from = 0): Promise<PlainResponse | undefined> {
  for (let index = from; index < stages.length; index++) {
    const rest: Rest = async (next) => (await runStages(stages, next, decided, index + 1)) ?? unanswered(next);
    const decision = stages[index]!(call, decided, rest);
    // Most stages decide at once; only those that wait are awaited, so the others cost no turn of the event loop.
    const answer = collect(decided, decision instanceof Promise ? await decision : decision);
    if (answer) return answer;
  }
  return undefined;
}

/** A call every stage let pass where one had to answer it: a fault in how the stages are composed, answered 500. */
export function unanswered(call: Pick<GatewayCall, "request" | "path">): never {
  throw new Error(`No stage answered ${call.request.method} ${call.path}`);
}
