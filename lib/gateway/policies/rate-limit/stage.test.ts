import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../../../limiters/rate-limit-memory";
import { createRateLimitMetrics } from "./metrics";
import { createRateLimitCheck, type RateLimitedCall } from "./stage";

const env = { id: "env_qa", slug: "sso-qa", rateLimitBurst: 2, rateLimitPerSecond: 1 };

function stageWithRegistry() {
  const registry = new Registry();
  const rateLimit = createRateLimitCheck({ limiter: createMemoryRateLimiter(), metrics: createRateLimitMetrics(registry) });
  const refusals = async () =>
    (await registry.getSingleMetricAsString("gatehouse_rate_limit_refusals_total")).split("\n").filter((line) => !line.startsWith("#"));
  return { rateLimit, refusals };
}

const call = (fields: Partial<RateLimitedCall> = {}): RateLimitedCall => ({
  env,
  api: "orders",
  clientId: "gci_one",
  credentialPolicy: null,
  span: undefined,
  ...fields,
});

describe("the rate-limit stage", () => {
  it("takes from the client's bucket under the environment's policy, and refuses the call that finds it empty", async () => {
    const { rateLimit, refusals } = stageWithRegistry();
    expect(await rateLimit(call())).toEqual({ headers: { "ratelimit-policy": '"client";q=2;w=2', ratelimit: '"client";r=1;t=1' }, refusal: undefined });
    expect((await rateLimit(call())).refusal).toBeUndefined();
    const spent = await rateLimit(call());
    expect(spent.headers).toEqual({ "ratelimit-policy": '"client";q=2;w=2', ratelimit: '"client";r=0;t=1' });
    expect(spent.refusal).toMatchObject({
      code: "rate-limited",
      status: 429,
      message: 'The client gci_one may send 1 requests per second (bursts of 2) in "sso-qa".',
      headers: { ...spent.headers, "retry-after": "1" },
    });
    expect(await refusals()).toEqual(['gatehouse_rate_limit_refusals_total{env="sso-qa",api="orders"} 1']);
  });

  it("keeps each client's bucket, and each environment's, apart", async () => {
    const { rateLimit } = stageWithRegistry();
    const policy = { burst: 1, perSecond: 1 };
    expect((await rateLimit(call({ credentialPolicy: policy }))).refusal).toBeUndefined();
    expect((await rateLimit(call({ credentialPolicy: policy, clientId: "gci_two" }))).refusal).toBeUndefined();
    expect((await rateLimit(call({ credentialPolicy: policy, env: { ...env, id: "env_prod", slug: "prod" } }))).refusal).toBeUndefined();
    expect((await rateLimit(call({ credentialPolicy: policy }))).refusal).toMatchObject({ code: "rate-limited" });
  });

  it("applies the credential's own policy over its environment's", async () => {
    const { rateLimit } = stageWithRegistry();
    const verdict = await rateLimit(call({ credentialPolicy: { burst: 1_000, perSecond: 500 } }));
    expect(verdict).toEqual({ headers: { "ratelimit-policy": '"client";q=1000;w=2', ratelimit: '"client";r=999;t=1' }, refusal: undefined });
  });
});
