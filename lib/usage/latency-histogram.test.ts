import { describe, expect, it } from "vitest";
import { addLatency, emptyHistogram, type LatencyHistogram, mergeInto, parseHistogram, percentileMs } from "./latency-histogram";

function histogramOf(latencies: number[]): LatencyHistogram {
  const histogram = emptyHistogram();
  for (const latency of latencies) addLatency(histogram, latency);
  return histogram;
}

describe("latency histogram", () => {
  it("interpolates a percentile within the bucket that holds its rank", () => {
    // 100 calls between 100 and 200 ms: taken as spread evenly over the bucket.
    const histogram = histogramOf(Array.from({ length: 100 }, (_, index) => 101 + index * 0.99));
    expect(percentileMs(histogram, 0.5, null)).toBe(150);
    expect(percentileMs(histogram, 0.95, null)).toBeCloseTo(195, 9);
    // Half the calls in (2, 5] and half in (100, 200]: p50 is the top of the lower bucket, p95 90% into the upper one.
    const split = histogramOf([3, 3, 4, 4, 150, 150, 150, 150]);
    expect(percentileMs(split, 0.5, 150)).toBe(5);
    expect(percentileMs(split, 0.95, 200)).toBeCloseTo(190, 9);
  });

  it("never estimates past the slowest call recorded", () => {
    // Calls of 10,002 ms sit in the (10,000, 30,000] bucket; its upper bound is no measurement.
    const slow = histogramOf(Array.from({ length: 10 }, () => 10_002));
    expect(percentileMs(slow, 0.95, 10_002)).toBe(10_002);
    expect(percentileMs(slow, 0.5, 10_002)).toBe(10_002);
    const split = histogramOf([3, 3, 4, 4, 150, 150, 150, 150]);
    expect(percentileMs(split, 0.95, 150)).toBe(150);
  });

  it("reads the open-ended bucket up to the slowest call, or as its lower bound when that is unknown", () => {
    const histogram = histogramOf([40_000, 50_000]);
    expect(percentileMs(histogram, 0.5, 50_000)).toBe(40_000);
    expect(percentileMs(histogram, 0.5, null)).toBe(30_000);
  });

  it("has no percentile without calls, and keeps its counts when merged", () => {
    expect(percentileMs(emptyHistogram(), 0.5, null)).toBeNull();
    const first = histogramOf([0.4, 3, 3, 4, 8]);
    const second = histogramOf([120, 180, 250, 4_000, 60_000]);
    mergeInto(first, parseHistogram(JSON.stringify(second)));
    expect(first.reduce((sum, count) => sum + count, 0)).toBe(10);
    expect(percentileMs(first, 0.5, 60_000)).toBe(10);
    expect(percentileMs(first, 0.95, 60_000)).toBe(45_000);
  });

  it("reads anything unreadable as empty", () => {
    expect(parseHistogram("not json")).toEqual(emptyHistogram());
    expect(parseHistogram('{"a":1}')).toEqual(emptyHistogram());
  });
});
