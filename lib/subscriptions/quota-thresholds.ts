import "server-only";
import { type Db, inTransaction } from "../db";
import { recordEvent } from "../events/record-event";
import { log } from "../log";
import { quotaUsage } from "./quota-usage";

const THRESHOLDS = [80, 100] as const;

/**
 * Records `quota.threshold` once per subscription, period and threshold (80 % and 100 % of the
 * plan's quota) that the count has reached: the gateway counts without Prisma, in Redis or the
 * database, so the portal's process reads the counts and writes the events, to email and webhooks.
 */
export async function recordQuotaThresholds(db: Db, now = new Date()): Promise<number> {
  const subscriptions = await db.subscription.findMany({
    include: {
      plan: true,
      application: { select: { name: true, ownerId: true, credentials: { where: { status: "ACTIVE" }, select: { clientId: true, environmentId: true } } } },
      environment: { select: { slug: true } },
      api: { select: { slug: true } },
    },
  });
  const usage = await quotaUsage(
    db,
    subscriptions.map((row) => ({ id: row.id, quotaRequests: row.plan.quotaRequests, quotaPeriod: row.plan.quotaPeriod })),
    now,
  );
  const reached = subscriptions.flatMap((row) => {
    const used = usage.get(row.id)!;
    return THRESHOLDS.filter((threshold) => used.used * 100 >= threshold * row.plan.quotaRequests).map((threshold) => ({ row, used, threshold }));
  });
  if (reached.length === 0) return 0;
  const earliest = new Date(Math.min(...reached.map(({ used }) => Date.parse(used.periodStart))));
  const recorded = await db.outboxEvent.findMany({ where: { type: "quota.threshold", occurredAt: { gte: earliest } }, select: { payload: true } });
  const sent = new Set(
    recorded.map(({ payload }) => {
      const { subscriptionId, periodStart, threshold } = payload as { subscriptionId: string; periodStart: string; threshold: number };
      return `${subscriptionId} ${periodStart} ${threshold}`;
    }),
  );
  let count = 0;
  for (const { row, used, threshold } of reached) {
    if (sent.has(`${row.id} ${used.periodStart} ${threshold}`)) continue;
    const clientId = row.application.credentials.find((credential) => credential.environmentId === row.environmentId)?.clientId;
    if (!clientId) continue;
    await inTransaction(db, (tx) =>
      recordEvent(tx, "quota.threshold", {
        subscriptionId: row.id,
        clientId,
        application: row.application.name,
        environment: row.environment.slug,
        api: row.api.slug,
        plan: row.plan.slug,
        threshold,
        used: used.used,
        quota: row.plan.quotaRequests,
        period: row.plan.quotaPeriod,
        periodStart: used.periodStart,
        periodEnd: used.periodEnd,
        ownerId: row.application.ownerId,
      }),
    );
    count++;
  }
  return count;
}

/** Checks the thresholds every `everyMs` in the portal's process (server.ts), beside the delivery worker. */
export function watchQuotaThresholds(db: Db, everyMs = 15_000): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    recordQuotaThresholds(db)
      .catch((error: unknown) => log.warn({ err: error }, "quota thresholds not checked"))
      .finally(() => {
        if (timer) timer = setTimeout(tick, everyMs).unref();
      });
  };
  timer = setTimeout(tick, everyMs).unref();
  return {
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
