const DAY_MS = 24 * 60 * 60 * 1000;

export type Notice = "week" | "day";

/** Which notice a secret or key expiring within a week is due: the day's in its last day, else the week's; none once sent. */
export function noticeDue(row: { expiresAt: Date | null; weekNoticeSentAt: Date | null; dayNoticeSentAt: Date | null }, now: Date): Notice | null {
  if (row.expiresAt!.getTime() - now.getTime() <= DAY_MS) return row.dayNoticeSentAt ? null : "day";
  return row.weekNoticeSentAt ? null : "week";
}

/** What a claimed notice writes: the day's also marks the week's sent, so a key or secret first seen in its last day gets one notice. */
export function noticeClaim(row: { weekNoticeSentAt: Date | null }, notice: Notice, now: Date) {
  return notice === "day" ? { dayNoticeSentAt: now, weekNoticeSentAt: row.weekNoticeSentAt ?? now } : { weekNoticeSentAt: now };
}
