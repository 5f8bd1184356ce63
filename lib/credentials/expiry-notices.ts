import { type DbClient, inTransaction } from "../db";

const DAY_MS = 24 * 60 * 60 * 1000;

export type Notice = "week" | "day";

type NoticeRow = { id: string; expiresAt: Date | null; weekNoticeSentAt: Date | null; dayNoticeSentAt: Date | null };

/** Which notice a secret or key expiring within a week is due: the day's in its last day, else the week's; none once sent. */
function noticeDue(row: NoticeRow, now: Date): Notice | null {
  if (row.expiresAt!.getTime() - now.getTime() <= DAY_MS) return row.dayNoticeSentAt ? null : "day";
  return row.weekNoticeSentAt ? null : "week";
}

/** The rows (client secrets or API keys) that may be due a notice: unrevoked, of an active credential, ending within a week, a notice unsent. */
export function expiringWithinAWeek(now: Date) {
  return {
    revokedAt: null,
    expiresAt: { gt: now, lte: new Date(now.getTime() + 7 * DAY_MS) },
    OR: [{ weekNoticeSentAt: null }, { dayNoticeSentAt: null }],
    credential: { status: "ACTIVE" as const },
  };
}

/**
 * Sends each row the notice it is due, a week and a day before it ends. Each notice is claimed
 * (`claim` updates the row where that notice is unsent, answering how many rows it changed)
 * before `send` writes it, in one transaction, so concurrent sweeps send it once. The day's
 * notice also marks the week's sent: a row first seen in its last day gets one notice.
 */
export async function sendExpiryNotices<Row extends NoticeRow>(input: {
  db: DbClient;
  now: Date;
  rows: Row[];
  claim: (tx: DbClient, where: Record<string, unknown>, data: Record<string, Date>) => Promise<{ count: number }>;
  send: (tx: DbClient, row: Row, notice: Notice) => Promise<void>;
}): Promise<{ week: number; day: number }> {
  const { db, now } = input;
  const sent = { week: 0, day: 0 };
  for (const row of input.rows) {
    const notice = noticeDue(row, now);
    if (!notice) continue;
    const claimed = await inTransaction(db, async (tx) => {
      const claim = await input.claim(
        tx,
        { id: row.id, ...(notice === "day" ? { dayNoticeSentAt: null } : { weekNoticeSentAt: null }) },
        notice === "day" ? { dayNoticeSentAt: now, weekNoticeSentAt: row.weekNoticeSentAt ?? now } : { weekNoticeSentAt: now },
      );
      if (claim.count === 0) return false;
      await input.send(tx, row, notice);
      return true;
    });
    if (claimed) sent[notice] += 1;
  }
  return sent;
}
