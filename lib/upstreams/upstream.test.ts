import { describe, expect, it } from "vitest";
import { type TargetEvent, TargetState } from "./target-state";
import { Upstream } from "./upstream";
import { type UpstreamPolicyInput, upstreamPolicySchema } from "./upstream-policy";

function upstreamOf(input: UpstreamPolicyInput) {
  const policy = upstreamPolicySchema.parse(input);
  const events: { target: string; event: TargetEvent }[] = [];
  const targets = policy.targets.map((target) => new TargetState(target, policy, (state, event) => events.push({ target: state.url, event })));
  return { upstream: new Upstream("sso-qa", "orders", policy, targets, { connectMs: 1_000, responseMs: 1_000, idleMs: 1_000 }), targets, events };
}

const NONE = new Set<TargetState>();

describe("smooth weighted round-robin", () => {
  it("spreads 5:1:1 as a a b a c a a, and skips a target of weight 0", () => {
    const { upstream } = upstreamOf({
      targets: [
        { url: "http://a", weight: 5 },
        { url: "http://b", weight: 1 },
        { url: "http://c", weight: 1 },
        { url: "http://drained", weight: 0 },
      ],
    });
    const picks = Array.from({ length: 14 }, () => upstream.pick(0, NONE)!.url.slice(7)).join(" ");
    expect(picks).toBe("a a b a c a a a a b a c a a");
  });

  it("leaves out the targets a call has tried", () => {
    const { upstream, targets } = upstreamOf({ targets: [{ url: "http://a" }, { url: "http://b" }] });
    expect(upstream.pick(0, new Set([targets[0]!]))?.url).toBe("http://b");
    expect(upstream.pick(0, new Set(targets))).toBeUndefined();
  });
});

describe("passive checks", () => {
  it("eject a target after consecutive failures for the cool-down, and a success in between starts the count again", () => {
    const { upstream, targets, events } = upstreamOf({ targets: [{ url: "http://a" }], passive: { unhealthyAfter: 2, cooldownSeconds: 5 } });
    const [a] = targets;
    a!.failed(0);
    a!.succeeded(1);
    a!.failed(2);
    expect(a!.available(3)).toBe(true);
    a!.failed(4);
    expect(a!.available(5)).toBe(false);
    expect(upstream.retryAfterSeconds(5)).toBe(5);
    expect(a!.available(5_004)).toBe(true);
    expect(events).toEqual([{ target: "http://a", event: { kind: "ejected", forSeconds: 5, consecutiveFailures: 2 } }]);
  });
});

describe("the circuit breaker", () => {
  const policy: UpstreamPolicyInput = {
    targets: [{ url: "http://a" }],
    passive: { unhealthyAfter: 100, cooldownSeconds: 1 },
    circuitBreaker: { failureRatio: 0.5, windowSeconds: 10, minimumRequests: 4, openSeconds: 2 },
  };

  it("stays closed below the minimum number of calls, opens at the ratio, and half-opens for one probe", () => {
    const { targets, events } = upstreamOf(policy);
    const a = targets[0]!;
    a.succeeded(0);
    a.failed(1);
    a.failed(2);
    expect(a.health(3).circuit).toBe("closed");
    a.failed(3);
    expect(a.available(4)).toBe(false);
    expect(a.available(2_003)).toBe(true);
    a.begin();
    expect(a.available(2_004)).toBe(false);
    a.succeeded(2_005);
    expect(a.available(2_006)).toBe(true);
    expect(events.map(({ event }) => event)).toEqual([
      { kind: "circuit", from: "closed", to: "open" },
      { kind: "circuit", from: "open", to: "half-open" },
      { kind: "circuit", from: "half-open", to: "closed" },
    ]);
  });

  it("opens again when the probe fails, and counts only the window's calls", () => {
    const { targets } = upstreamOf(policy);
    const a = targets[0]!;
    for (const at of [0, 1, 2, 3]) a.failed(at);
    expect(a.available(2_003)).toBe(true);
    a.begin();
    a.failed(2_004);
    expect(a.health(2_005).circuit).toBe("open");
    expect(a.available(4_004)).toBe(true);
    a.begin();
    a.succeeded(4_005);
    // Three failures 11 s later are a new window of three calls: below the minimum.
    for (const at of [15_000, 15_001, 15_002]) a.failed(at);
    expect(a.health(15_003).circuit).toBe("closed");
  });
});

describe("active checks", () => {
  it("take a target out after unhealthyAfter failures and back after healthyAfter successes", () => {
    const { upstream, targets } = upstreamOf({
      targets: [{ url: "http://a" }],
      healthCheck: { path: "/health", intervalSeconds: 2, unhealthyAfter: 2, healthyAfter: 3 },
    });
    const a = targets[0]!;
    a.checked(false);
    expect(a.available(0)).toBe(true);
    a.checked(false);
    expect(a.available(0)).toBe(false);
    expect(upstream.retryAfterSeconds(0)).toBe(6);
    a.checked(true);
    a.checked(true);
    expect(a.available(0)).toBe(false);
    a.checked(true);
    expect(a.available(0)).toBe(true);
  });
});
