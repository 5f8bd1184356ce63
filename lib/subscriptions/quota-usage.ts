import "server-only";
import { Redis } from "ioredis";
import { config } from "../config";
import type { DbClient } from "../db";
import { type QuotaPeriod, quotaKey, quotaWindow } from "../limiters/quota";

/** The counts at `keys`, over a connection of its own, closed at once: a page or a CLI run reads them once, and must not be kept running. */
async function sharedCounts(redisUrl: string, keyPrefix: string, keys: string[]): Promise<(string | null)[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectionName: `${keyPrefix}quota-usage` });
  redis.on("error", () => undefined);
  try {
    return await redis.mget(keys);
  } catch {
    return keys.map(() => null);
  } finally {
    redis.disconnect();
  }
}

export type QuotaUsage = { used: number; remaining: number; periodStart: string; periodEnd: string };

/**
 * What each subscription used of its plan's quota in the current period: the gateway's count in
 * Redis when `REDIS_URL` is set, plus any counted in the database (where it counts without Redis,
 * and while Redis does not answer).
 */
export async function quotaUsage(
  db: DbClient,
  subscriptions: readonly { id: string; quotaRequests: number; quotaPeriod: QuotaPeriod }[],
  now = new Date(),
): Promise<Map<string, QuotaUsage>> {
  if (subscriptions.length === 0) return new Map();
  const windows = subscriptions.map((subscription) => ({ subscription, window: quotaWindow(subscription.quotaPeriod, now) }));
  const stored = await db.quotaUsage.findMany({
    where: { OR: windows.map(({ subscription, window }) => ({ subscriptionId: subscription.id, periodStart: window.start })) },
  });
  const counted = new Map(stored.map((row) => [row.subscriptionId, row.used]));
  const { redisUrl, redisKeyPrefix } = config();
  const keys = windows.map(({ subscription, window }) => quotaKey(redisKeyPrefix, subscription.id, window.start));
  const shared = redisUrl ? await sharedCounts(redisUrl, redisKeyPrefix, keys) : keys.map(() => null);
  return new Map(
    windows.map(({ subscription, window }, index) => {
      const used = Math.min(subscription.quotaRequests, (counted.get(subscription.id) ?? 0) + Number(shared[index] ?? 0));
      return [
        subscription.id,
        { used, remaining: subscription.quotaRequests - used, periodStart: window.start.toISOString(), periodEnd: window.end.toISOString() },
      ];
    }),
  );
}
