import { describe, expect, it } from "vitest";
import { restartDelayMs } from "./gateway-cluster";
import { gatewayProcessCount } from "./gateway-processes";
import { StartupError } from "./start-up";

const REDIS = "redis://127.0.0.1:6379";

describe("how many gateway processes start:gateway runs", () => {
  it("is the machine's parallelism with Redis and one without, unless GATEWAY_PROCESSES says", () => {
    expect(gatewayProcessCount({ gatewayProcesses: undefined, redisUrl: REDIS }, 8)).toBe(8);
    expect(gatewayProcessCount({ gatewayProcesses: undefined, redisUrl: undefined }, 8)).toBe(1);
    expect(gatewayProcessCount({ gatewayProcesses: 3, redisUrl: REDIS }, 8)).toBe(3);
    expect(gatewayProcessCount({ gatewayProcesses: 1, redisUrl: undefined }, 8)).toBe(1);
    expect(gatewayProcessCount({ gatewayProcesses: "auto", redisUrl: undefined }, 1)).toBe(1);
  });

  it("refuses more than one without Redis, in one line that says why and how to fix it", () => {
    expect(() => gatewayProcessCount({ gatewayProcesses: 2, redisUrl: undefined }, 8)).toThrow(
      new StartupError(
        "GATEWAY_PROCESSES=2 needs REDIS_URL: without Redis each process would keep its own rate limits, used token ids, response cache and WebSocket counts. Set REDIS_URL, or set GATEWAY_PROCESSES=1.",
      ),
    );
    expect(() => gatewayProcessCount({ gatewayProcesses: "auto", redisUrl: undefined }, 4)).toThrow(
      /^GATEWAY_PROCESSES=auto \(4 on this machine\) needs REDIS_URL/,
    );
  });
});

describe("a dead gateway process's replacement", () => {
  it("starts at once after a steady run, and waits twice as long after each quick death in a row, up to 30 s", () => {
    expect([0, 1, 2, 3, 7, 20].map(restartDelayMs)).toEqual([0, 500, 1_000, 2_000, 30_000, 30_000]);
  });
});
