import "server-only";
import type { Actor } from "../audit/write-audit";
import { recordAudit } from "../audit/write-audit";
import { type DbClient, inTransaction } from "../db";
import { problem } from "../http/problem";
import { WEBHOOK_CHANNEL } from "../events/channels";
import { newId } from "../ids";
import { endpointFor } from "./endpoints";

const LOG_LENGTH = 50;

type DeliveryRow = {
  id: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  event: { id: string; type: string; occurredAt: Date };
  webhookAttempts: { at: Date; statusCode: number | null; durationMs: number; error: string | null }[];
};

function deliveryView(row: DeliveryRow) {
  return {
    id: row.id,
    eventId: row.event.id,
    type: row.event.type,
    occurredAt: row.event.occurredAt.toISOString(),
    status: row.status,
    attempts: row.webhookAttempts.map((attempt) => ({
      at: attempt.at.toISOString(),
      statusCode: attempt.statusCode,
      durationMs: attempt.durationMs,
      error: attempt.error,
    })),
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    lastError: row.lastError,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export type WebhookDeliveryView = ReturnType<typeof deliveryView>;

const withLog = {
  event: { select: { id: true, type: true, occurredAt: true } },
  webhookAttempts: { select: { at: true, statusCode: true, durationMs: true, error: true }, orderBy: { at: "asc" as const } },
};

/** The endpoint's newest deliveries, each with its attempts: what it was sent, when, and what it answered. */
export async function webhookDeliveries(input: { db: DbClient; actor: Actor; endpointId: string }): Promise<WebhookDeliveryView[]> {
  const endpoint = await endpointFor(input.db, input.actor, input.endpointId, "read");
  const rows = await input.db.eventDelivery.findMany({
    where: { channel: WEBHOOK_CHANNEL, address: endpoint.id },
    include: withLog,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LOG_LENGTH,
  });
  return rows.map(deliveryView);
}

/** A new delivery of the same event to the same endpoint, sent by the worker like any other; the original stays as it was. */
export async function replayWebhookDelivery(input: { db: DbClient; actor: Actor; endpointId: string; deliveryId: string }): Promise<WebhookDeliveryView> {
  const endpoint = await endpointFor(input.db, input.actor, input.endpointId, "manage");
  const original = await input.db.eventDelivery.findFirst({ where: { id: input.deliveryId, channel: WEBHOOK_CHANNEL, address: endpoint.id } });
  if (!original) throw problem("not-found", { detail: `No delivery ${input.deliveryId} to webhook endpoint ${endpoint.id}.` });
  if (!endpoint.enabled) throw problem("webhook-disabled", { detail: `The webhook endpoint ${endpoint.id} is disabled.` });
  const replay = await inTransaction(input.db, async (tx) => {
    const created = await tx.eventDelivery.create({
      data: { id: newId("dlv"), eventId: original.eventId, channel: WEBHOOK_CHANNEL, address: endpoint.id },
      include: withLog,
    });
    await recordAudit(tx, input.actor, {
      action: "webhook.delivery.replay",
      targetType: "webhook",
      targetId: endpoint.id,
      details: { deliveryId: original.id, replayId: created.id },
    });
    return created;
  });
  return deliveryView(replay);
}
