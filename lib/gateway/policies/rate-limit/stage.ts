import { problem, type ProblemError, toProblem } from "../../../http/problem";
import { type RateLimitDecision, type RateLimiter, rateLimitHeaders } from "../../../limiters/rate-limit";
import type { RateLimitPolicy } from "../../../limiters/rate-limit-policy";
import type { RequestSpan, StageSpan } from "../../../tracing/tracer";
import { PASS, type Stage } from "../../pipeline";
import type { RateLimitMetrics } from "./metrics";

/** The call whose client's budget is taken: where, by whom, under which policy. */
export type RateLimitedCall = {
  env: { id: string; slug: string; rateLimitBurst: number; rateLimitPerSecond: number };
  api: string;
  clientId: string;
  /** the credential's own policy; null when its environment's applies */
  credentialPolicy: RateLimitPolicy | null;
  /** the subscription of an API that offers plans: its plan's policy applies, to the subscription's own bucket */
  subscription?: { id: string; plan: string; policy: RateLimitPolicy };
  span: RequestSpan | undefined;
};

/** The RateLimit headers every answer to the call carries, and the 429 when its budget is spent. */
export type RateLimitVerdict = { headers: Record<string, string>; refusal: ProblemError | undefined };

/** At once where the limiter's bucket is this process's own. */
export type RateLimitCheck = (call: RateLimitedCall) => RateLimitVerdict | Promise<RateLimitVerdict>;

/** The headers and, when the bucket was empty, the 429 of one call's decision, which ends its span. */
function verdictOf(
  call: RateLimitedCall,
  policy: RateLimitPolicy,
  decision: RateLimitDecision,
  stage: StageSpan | undefined,
  metrics: RateLimitMetrics,
): RateLimitVerdict {
  const { env, api, clientId, subscription } = call;
  stage?.end(decision.allowed ? undefined : "rate-limited");
  const headers = rateLimitHeaders(decision, policy);
  if (decision.allowed) return { headers, refusal: undefined };
  metrics.refused(env.slug, api);
  const refusal = problem("rate-limited", {
    detail: subscription
      ? `The plan "${subscription.plan}" of the subscription ${subscription.id} allows ${policy.perSecond} requests per second (bursts of ${policy.burst}) to "${api}" in "${env.slug}".`
      : `The client ${clientId} may send ${policy.perSecond} requests per second (bursts of ${policy.burst}) in "${env.slug}".`,
    headers: Object.assign({}, headers, { "retry-after": String(decision.retryAfterSeconds) }),
  });
  return { headers, refusal };
}

/**
 * Takes one request from the client's bucket in the environment, under the credential's
 * policy or else the environment's.
 */
export function createRateLimitCheck(deps: { limiter: RateLimiter; metrics: RateLimitMetrics }): RateLimitCheck {
  return (call) => {
    const { env, clientId, credentialPolicy, subscription, span } = call;
    const policy = subscription?.policy ?? credentialPolicy ?? { burst: env.rateLimitBurst, perSecond: env.rateLimitPerSecond };
    const bucket = subscription ? `${env.id}:subscription:${subscription.id}` : `${env.id}:${clientId}`;
    const stage = span?.stage("rate limit");
    const taken = deps.limiter.take(bucket, policy);
    if (!(taken instanceof Promise)) return verdictOf(call, policy, taken, stage, deps.metrics);
    return taken.then(
      (decision) => verdictOf(call, policy, decision, stage, deps.metrics),
      (error: unknown) => {
        stage?.end(toProblem(error).code);
        throw error;
      },
    );
  };
}

/** The rate limit's stage: every authenticated caller's call takes from its budget; a public API's calls have no client to limit. */
export function createRateLimitStage(check: RateLimitCheck): Stage {
  return ({ trace, at }, { caller }) => {
    if (!caller || at.kind === "token-service") return PASS;
    const subscribed = at.api.offersPlans ? caller.credential.subscriptions.get(at.api.id) : undefined;
    const subscription = subscribed && { id: subscribed.id, plan: subscribed.plan, policy: subscribed.rateLimit };
    return check({
      env: at.env,
      api: at.api.slug,
      clientId: caller.token.clientId,
      credentialPolicy: caller.credential.rateLimit,
      subscription,
      span: trace.span,
    });
  };
}
