import { describe, expect, it } from "vitest";
import { addLatency, emptyHistogram, mergeInto, parseHistogram, percentileMs } from "./latency-histogram";

describe("latency histogram", () => {
  it("answers p50 and p95 to the upper bound of their bucket, also after merging", () => {
    const first = emptyHistogram();
    for (const latency of [0.4, 3, 3, 4, 8]) addLatency(first, latency);
    const second = emptyHistogram();
    for (const latency of [120, 180, 250, 4_000, 60_000]) addLatency(second, latency);
    mergeInto(first, parseHistogram(JSON.stringify(second)));
    expect(percentileMs(first, 0.5)).toBe(10);
    expect(percentileMs(first, 0.95)).toBe(30_000);
    expect(percentileMs(emptyHistogram(), 0.5)).toBe(0);
  });

  it("reads anything unreadable as empty", () => {
    expect(parseHistogram("not json")).toEqual(emptyHistogram());
    expect(parseHistogram('{"a":1}')).toEqual(emptyHistogram());
  });
});
