import "server-only";
import { config } from "../config";
import type { DbClient } from "../db";
import { log } from "../log";
import { createNotifications } from "../notifications/create-notifications";
import { recordAudit, SYSTEM_ACTOR } from "../audit/write-audit";
import { recordEvent } from "../events/record-event";
import { sendApiKeyExpiryNotices } from "./api-key-expiry";
import { credentialEvent } from "./credentials";
import { expiringWithinAWeek, sendExpiryNotices } from "./expiry-notices";

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
    where: expiringWithinAWeek(now),
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
  return sendExpiryNotices({
    db,
    now,
    rows: candidates.filter((secret) => !secret.credential.secrets.some((other) => other.createdAt > secret.createdAt)),
    claim: (tx, where, data) => tx.credentialSecret.updateMany({ where, data }),
    send: async (tx, secret, notice) => {
      const expiresAt = secret.expiresAt!;
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
    },
  });
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
