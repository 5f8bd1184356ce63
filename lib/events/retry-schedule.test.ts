import { describe, expect, it } from "vitest";
import { nextAttemptAt, RETRY_WINDOW_MS, retryDelayMs } from "./retry-schedule";

describe("retry schedule", () => {
  it("doubles from 30 seconds up to an hour, drawn between half and all of each step", () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, () => 1))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect([1, 2, 3].map((attempts) => retryDelayMs(attempts, () => 0))).toEqual([15_000, 30_000, 60_000]);
    expect(retryDelayMs(30, () => 1)).toBe(3_600_000);
  });

  it("schedules the next attempt inside 24 hours of the event, and none past them", () => {
    const createdAt = new Date("2026-01-01T00:00:00Z");
    const early = new Date(createdAt.getTime() + 60_000);
    expect(nextAttemptAt({ attempts: 1, createdAt, now: early, random: () => 1 })).toEqual(new Date(early.getTime() + 30_000));
    const late = new Date(createdAt.getTime() + RETRY_WINDOW_MS - 10_000);
    expect(nextAttemptAt({ attempts: 1, createdAt, now: late, random: () => 1 })).toBeNull();
  });
});
