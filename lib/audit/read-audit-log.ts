import "server-only";
import type { DbClient } from "../db";

/** The newest audit events, optionally for one action prefix or target. */
export function recentAuditEvents({ db, filter = {}, take = 200 }: { db: DbClient; filter?: { action?: string; target?: string }; take?: number }) {
  return db.auditEvent.findMany({
    where: {
      ...(filter.action ? { action: { startsWith: filter.action } } : {}),
      ...(filter.target ? { targetId: filter.target } : {}),
    },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take,
  });
}
