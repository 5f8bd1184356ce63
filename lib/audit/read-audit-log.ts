import "server-only";
import { db } from "../db";

/** The newest audit events, optionally for one action prefix or target. */
export function recentAuditEvents(filter: { action?: string; target?: string } = {}, take = 200) {
  return db().auditEvent.findMany({
    where: {
      ...(filter.action ? { action: { startsWith: filter.action } } : {}),
      ...(filter.target ? { targetId: filter.target } : {}),
    },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take,
  });
}
