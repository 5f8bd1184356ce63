const DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const WEEKDAY = new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
const HOUR = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });

/** A place on a chart's time axis: `at` is the fraction of the axis's width from its left end. */
export type TimeTick = { at: number; label: string };

/** The period a bucket covers, as a reader names it: "Thu, Nov 20, 14:00–15:00 UTC" or "Thu, Nov 20 (UTC)". */
export function bucketPeriod(start: Date, bucketHours: number): string {
  if (bucketHours >= 24) return `${WEEKDAY.format(start)} (UTC)`;
  const end = new Date(start.getTime() + bucketHours * 3_600_000);
  return `${WEEKDAY.format(start)}, ${HOUR.format(start)}–${HOUR.format(end)} UTC`;
}

/**
 * Day labels for a series of buckets: each midnight (UTC) of an hourly series, every fifth
 * day of a daily one counted back from the newest. Labels too near an end of the axis to fit
 * are left out.
 */
export function timeTicks(starts: Date[], bucketHours: number): TimeTick[] {
  const count = starts.length;
  const ticks =
    bucketHours >= 24
      ? starts.flatMap((start, index) => ((count - 1 - index) % 5 === 0 ? [{ at: (index + 0.5) / count, label: DAY.format(start) }] : []))
      : starts.flatMap((start, index) => (start.getUTCHours() === 0 ? [{ at: index / count, label: DAY.format(start) }] : []));
  return ticks.filter((tick) => tick.at >= 0.04 && tick.at <= 0.96);
}
