import "server-only";
import { config } from "../config";
import { type DbClient, inTransaction } from "../db";
import { log } from "../log";
import { createNotifications } from "../notifications/create-notifications";
import { recordAudit, SYSTEM_ACTOR } from "../audit/write-audit";
import { recordEvent } from "../events/record-event";
import { sendApiKeyExpiryNotices } from "./api-key-expiry";
import { credentialEvent } from "./credentials";
import { noticeClaim, noticeDue } from "./expiry-notices";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Notifies the owning client, through the Notifications API, a week and a day
 * before one of its secrets expires. Secrets already replaced by a newer one
 * (rotated out with a grace period) are skipped: their end was chosen.
 * Each notice is claimed before it is sent, so concurrent sweeps send it once; the first
 * notice of a secret also records one `credential.secret_expiring` event, in the same transaction.
 */
export async function sendSecretExpiryNotices(input: { db: DbClient; now?: Date }): Promise<{ week: number; day: number }> {
  const { db } = input;
  const now = input.now ?? new Date();
  const candidates = await db.credentialSecret.findMany({
    where: {
      revokedAt: null,
      expiresAt: { gt: now, lte: new Date(now.getTime() + 7 * DAY_MS) },
      OR: [{ weekNoticeSentAt: null }, { dayNoticeSentAt: null }],
      credential: { status: "ACTIVE" },
    },
    include: {
      credential: {
        include: {
          environment: true,
          application: { select: { name: true, ownerId: true } },
          secrets: { where: { revokedAt: null }, select: { createdAt: true } },
        },
      },
    },
  });
  const sent = { week: 0, day: 0 };
  for (const secret of candidates) {
    if (secret.credential.secrets.some((other) => other.createdAt > secret.createdAt)) continue;
    const notice = noticeDue(secret, now);
    if (!notice) continue;
    const expiresAt = secret.expiresAt!;
    const claimed = await inTransaction(db, async (tx) => {
      const claim = await tx.credentialSecret.updateMany({
        where: { id: secret.id, ...(notice === "day" ? { dayNoticeSentAt: null } : { weekNoticeSentAt: null }) },
        data: noticeClaim(secret, notice, now),
      });
      if (claim.count === 0) return false;
      const { clientId, environment } = secret.credential;
      const when = expiresAt.toISOString().slice(0, 16).replace("T", " ");
      await createNotifications({
        db: tx,
        environmentId: environment.id,
        recipients: { clientIds: [clientId] },
        title: `Client secret ending in ${secret.hint} expires ${notice === "day" ? "within a day" : "within a week"}`,
        body: `The secret ending in ${secret.hint} of ${clientId} in ${environment.name} stops working at ${when} UTC. Rotate it under Settings → Client Credentials and deploy the new secret before then.`,
        category: "security",
        severity: notice === "day" ? "critical" : "warning",
        link: `${config().publicUrl}/settings/credentials`,
      });
      await recordAudit(tx, SYSTEM_ACTOR, {
        action: `credential.secret.expiry-notice.${notice}`,
        targetType: "credential",
        targetId: clientId,
        details: { hint: secret.hint, expiresAt: expiresAt.toISOString() },
      });
      if (!secret.weekNoticeSentAt) {
        await recordEvent(tx, "credential.secret_expiring", { ...credentialEvent(secret.credential), hint: secret.hint, expiresAt: expiresAt.toISOString() });
      }
      return true;
    });
    if (!claimed) continue;
    sent[notice] += 1;
  }
  return sent;
}

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Sweeps secrets and API keys now and every 10 minutes for as long as the process runs (server.ts starts it). */
export function startSecretExpirySweeps(db: DbClient): void {
  const sweep = () => {
    sendSecretExpiryNotices({ db }).catch((error: unknown) => log.error({ err: error }, "secret expiry sweep failed"));
    sendApiKeyExpiryNotices({ db }).catch((error: unknown) => log.error({ err: error }, "API key expiry sweep failed"));
  };
  sweep();
  setInterval(sweep, SWEEP_INTERVAL_MS).unref();
}
