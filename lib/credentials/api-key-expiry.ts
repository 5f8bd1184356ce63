import "server-only";
import { recordAudit, SYSTEM_ACTOR } from "../audit/write-audit";
import { config } from "../config";
import type { DbClient } from "../db";
import { recordEvent } from "../events/record-event";
import { createNotifications } from "../notifications/create-notifications";
import { credentialEvent } from "./credentials";
import { expiringWithinAWeek, sendExpiryNotices } from "./expiry-notices";

/**
 * Notifies the key's client, through the Notifications API, a week and a day before one of its
 * API keys expires, as client secrets are warned. A key replaced by a newer active key of the
 * same credential (rolled, with an overlap) is skipped: its end was chosen. Each notice is
 * claimed before it is sent, so concurrent sweeps send it once; a key's first notice also
 * records one `api_key.expiring` event (email and webhook), in the same transaction.
 */
export async function sendApiKeyExpiryNotices(input: { db: DbClient; now?: Date }): Promise<{ week: number; day: number }> {
  const { db } = input;
  const now = input.now ?? new Date();
  const candidates = await db.apiKey.findMany({
    where: expiringWithinAWeek(now),
    include: {
      credential: {
        include: {
          environment: true,
          application: { select: { name: true, ownerId: true } },
          apiKeys: { where: { revokedAt: null }, select: { createdAt: true } },
        },
      },
    },
  });
  return sendExpiryNotices({
    db,
    now,
    rows: candidates.filter((key) => !key.credential.apiKeys.some((other) => other.createdAt > key.createdAt)),
    claim: (tx, where, data) => tx.apiKey.updateMany({ where, data }),
    send: async (tx, key, notice) => {
      const expiresAt = key.expiresAt!;
      const { clientId, environment, application } = key.credential;
      const when = expiresAt.toISOString().slice(0, 16).replace("T", " ");
      await createNotifications({
        db: tx,
        environmentId: environment.id,
        recipients: { clientIds: [clientId] },
        title: `API key ending in ${key.hint} expires ${notice === "day" ? "within a day" : "within a week"}`,
        body: `The API key ending in ${key.hint} of ${application.name} in ${environment.name} stops working at ${when} UTC. Roll it under Settings → API keys and deploy the new key before then.`,
        category: "security",
        severity: notice === "day" ? "critical" : "warning",
        link: `${config().publicUrl}/settings/api-keys`,
      });
      await recordAudit(tx, SYSTEM_ACTOR, {
        action: `api-key.expiry-notice.${notice}`,
        targetType: "api-key",
        targetId: key.id,
        details: { clientId, hint: key.hint, expiresAt: expiresAt.toISOString() },
      });
      if (!key.weekNoticeSentAt) {
        await recordEvent(tx, "api_key.expiring", { ...credentialEvent(key.credential), keyId: key.id, hint: key.hint, expiresAt: expiresAt.toISOString() });
      }
    },
  });
}
