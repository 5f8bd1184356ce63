import type { SubscriptionRow } from "../../../data-plane/store";
import { problem, type ProblemError, toProblem } from "../../../http/problem";
import { type QuotaCounter, quotaFields, secondsUntil } from "../../../limiters/quota";
import type { RequestSpan } from "../../../tracing/tracer";
import { PASS, type Stage } from "../../pipeline";
import type { QuotaMetrics } from "./metrics";

/** The call whose subscription's quota is taken from, and the RateLimit fields the rate limit decided before it. */
export type QuotaCall = {
  env: { slug: string };
  api: string;
  subscription: SubscriptionRow;
  /** the rate limit's RateLimit fields, to which the quota's are added */
  headers: Readonly<Record<string, string>> | undefined;
  span: RequestSpan | undefined;
};

/** The fields every answer to the call carries, and the 429 when the period's quota is used up. */
export type QuotaVerdict = { headers: Record<string, string>; refusal: ProblemError | undefined };

export type QuotaCheck = (call: QuotaCall) => Promise<QuotaVerdict>;

/** A list field's items, the earlier stage's first (RFC 9651 lists: `"client";q=10;w=2, "quota";q=1000;w=2592000`). */
const appended = (before: string | undefined, item: string) => (before ? `${before}, ${item}` : item);

/**
 * Counts the call against its subscription's plan quota for the current calendar period (UTC),
 * exactly across instances (`QuotaCounter`), and adds the quota to the RateLimit fields.
 */
export function createQuotaCheck(deps: { counter: QuotaCounter; metrics: QuotaMetrics; now?: () => Date }): QuotaCheck {
  const now = deps.now ?? (() => new Date());
  return async ({ env, api, subscription, headers, span }) => {
    const at = now();
    const stage = span?.stage("quota");
    let decision: Awaited<ReturnType<QuotaCounter["take"]>>;
    try {
      decision = await deps.counter.take(subscription.id, subscription.quota, at);
    } catch (error) {
      stage?.end(toProblem(error).code);
      throw error;
    }
    stage?.end(decision.allowed ? undefined : "quota-exceeded");
    const fields = quotaFields(decision, subscription.quota, at);
    const merged = Object.assign({}, headers, {
      "ratelimit-policy": appended(headers?.["ratelimit-policy"], fields.policy),
      ratelimit: appended(headers?.ratelimit, fields.limit),
    });
    if (decision.allowed) return { headers: merged, refusal: undefined };
    deps.metrics.refused(env.slug, api, subscription.plan);
    const { requests, period } = subscription.quota;
    const refusal = problem("quota-exceeded", {
      detail: `The subscription ${subscription.id} to "${api}" in "${env.slug}" used the ${requests} requests its plan "${subscription.plan}" allows per ${period}; the next ${period} starts at ${decision.window.end.toISOString()}.`,
      extensions: { plan: subscription.plan, quota: requests, period, resetsAt: decision.window.end.toISOString() },
      headers: Object.assign({}, merged, { "retry-after": String(secondsUntil(decision.window.end, at)) }),
    });
    return { headers: merged, refusal };
  };
}

/**
 * The quota's stage, after the rate limit: a call to an API that offers plans is counted against
 * its application's subscription (authorization has refused a caller without one). Built-in APIs
 * and APIs without plans have no quota.
 */
export function createQuotaStage(check: QuotaCheck): Stage {
  return ({ trace, at }, { caller, headers }) => {
    if (!caller || at.kind === "token-service" || !at.api.offersPlans) return PASS;
    const subscription = caller.credential.subscriptions.get(at.api.id);
    if (!subscription) return PASS;
    return check({ env: at.env, api: at.api.slug, subscription, headers, span: trace.span });
  };
}
