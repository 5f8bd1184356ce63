import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { shareCircuits } from "./shared-circuits";
import { upstreamPolicySchema } from "./upstream-policy";
import { createUpstreamSet, type UpstreamSet } from "./upstream-set";

const log = pino({ level: "silent" });
const policy = upstreamPolicySchema.parse({
  targets: [{ url: "http://orders.internal" }],
  circuitBreaker: { failureRatio: 0.5, windowSeconds: 10, minimumRequests: 2, openSeconds: 30 },
});

function gatewayProcess(): UpstreamSet {
  const set = createUpstreamSet({ log, probe: async () => true, defaultTimeoutMs: 1_000 });
  set.configure([{ env: "sso-qa", api: "orders", policy }]);
  return set;
}

const circuitOf = (set: UpstreamSet) => set.health()[0]!.targets[0]!.circuit;

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("circuit states shared through Redis", () => {
  it("a circuit one process opens is open in the other, and closes there when the first closes it", async () => {
    const keyPrefix = `gatehouse-test-${randomUUID()}:`;
    const [one, other] = [gatewayProcess(), gatewayProcess()];
    const stops = [one, other].map((set) => shareCircuits({ set, redisUrl: "redis://127.0.0.1:6379", keyPrefix, log }));
    try {
      const redis = new Redis("redis://127.0.0.1:6379");
      await until(async () => ((await redis.pubsub("NUMSUB", `${keyPrefix}upstream-circuits`)) as [string, number])[1] === 2);
      redis.disconnect();
      const target = one.get("sso-qa", "orders")!.targets[0]!;
      const now = Date.now();
      target.failed(now);
      target.failed(now);
      await until(() => circuitOf(other) === "open");
      expect(circuitOf(one)).toBe("open");
      expect(other.get("sso-qa", "orders")!.pick(Date.now(), new Set())).toBeUndefined();

      const later = now + 31_000;
      expect(target.available(later)).toBe(true);
      target.begin();
      target.succeeded(later);
      await until(() => circuitOf(other) === "closed");
      expect(circuitOf(one)).toBe("closed");
    } finally {
      await Promise.all(stops.map((stop) => stop()));
      one.close();
      other.close();
    }
  });
});
