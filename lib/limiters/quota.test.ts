import { describe, expect, it } from "vitest";
import { quotaFields, quotaWindow } from "./quota";

describe("quota periods, calendar periods in UTC", () => {
  it("starts an hour, a day and a month on their boundaries", () => {
    const now = new Date("2026-02-28T23:59:59.900Z");
    expect(quotaWindow("hour", now)).toEqual({ start: new Date("2026-02-28T23:00:00Z"), end: new Date("2026-03-01T00:00:00Z") });
    expect(quotaWindow("day", now)).toEqual({ start: new Date("2026-02-28T00:00:00Z"), end: new Date("2026-03-01T00:00:00Z") });
    expect(quotaWindow("month", now)).toEqual({ start: new Date("2026-02-01T00:00:00Z"), end: new Date("2026-03-01T00:00:00Z") });
    expect(quotaWindow("month", new Date("2026-12-31T12:00:00Z")).end).toEqual(new Date("2027-01-01T00:00:00Z"));
  });

  it("writes the quota as IETF RateLimit fields: the period's length and the seconds to its end", () => {
    const now = new Date("2026-11-29T01:00:00Z");
    const window = quotaWindow("month", now);
    expect(quotaFields({ allowed: true, used: 1, window }, { requests: 1000, period: "month" }, now)).toEqual({
      policy: '"quota";q=1000;w=2592000',
      limit: `"quota";r=999;t=${(window.end.getTime() - now.getTime()) / 1000}`,
    });
  });
});
