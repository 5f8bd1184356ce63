import "server-only";
import type { DbClient } from "../db";
import { newId } from "../ids";

/** Who did something, as the audit log shows it: a user (id + email), "cli" or "system". */
export type Actor = { userId?: string | null; label: string };

export const CLI_ACTOR: Actor = { label: "cli" };
export const SYSTEM_ACTOR: Actor = { label: "system" };

export type AuditEntry = {
  action: string;
  targetType: string;
  targetId: string;
  /** what matters about the action; never a secret */
  details?: Record<string, unknown>;
};

/** Takes the transaction of the change it describes, when there is one, so the event commits with it. */
export async function recordAudit(db: DbClient, actor: Actor, entry: AuditEntry): Promise<void> {
  await db.auditEvent.create({
    data: {
      id: newId("aud"),
      actorId: actor.userId ?? null,
      actorLabel: actor.label,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: (entry.details ?? undefined) as never,
    },
  });
}
