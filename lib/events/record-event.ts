import "server-only";
import { config } from "../config";
import type { Tx } from "../db";
import { newId } from "../ids";
import { mutedEventTypes } from "./preferences";
import type { Recipient } from "./recipients";
import { definitionOf, EVENT_TYPES, type EventPayload, type EventType } from "./registry";
import { WEBHOOK_CHANNEL } from "./channels";
import { subscribedEndpoints } from "./webhook-subscriptions";

/** The channels deliveries are made for: email when SMTP_URL is set, none otherwise. */
export function deliveryChannels(): string[] {
  return config().email ? ["email"] : [];
}

/**
 * Writes an event, one pending email delivery per recipient, and one webhook delivery per
 * enabled endpoint subscribed to the type of a team the event concerns, in the transaction of
 * the change that causes it: the event commits with the change or not at all
 * (docs/decisions/032-event-outbox.md). Recipients who muted the type get no email.
 */
export async function recordEvent<Type extends EventType>(tx: Tx, type: Type, payload: EventPayload<Type>): Promise<string> {
  const definition = definitionOf(type);
  const parsed = definition.payload.parse(payload);
  const eventId = newId("evt");
  await tx.outboxEvent.create({ data: { id: eventId, type, payload: parsed as object, ...definition.subject(parsed) } });
  const channels = deliveryChannels();
  const wanted = channels.length === 0 ? [] : await wantedBy(tx, type, await definition.recipients(tx, parsed));
  const emails = channels.flatMap((channel) =>
    wanted.map((recipient) => ({ id: newId("dlv"), eventId, channel, address: recipient.email, userId: recipient.userId })),
  );
  const webhooks = (await subscribedEndpoints(tx, type, parsed)).map((endpointId) => ({
    id: newId("dlv"),
    eventId,
    channel: WEBHOOK_CHANNEL,
    address: endpointId,
  }));
  if (emails.length + webhooks.length > 0) await tx.eventDelivery.createMany({ data: [...emails, ...webhooks] });
  return eventId;
}

async function wantedBy(tx: Tx, type: EventType, recipients: Recipient[]) {
  if (!EVENT_TYPES[type].mutable) return recipients;
  const userIds = recipients.flatMap((recipient) => (recipient.userId ? [recipient.userId] : []));
  const users = await tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, emailMutedEvents: true } });
  const muting = new Set(users.filter((user) => mutedEventTypes(user.emailMutedEvents).has(type)).map((user) => user.id));
  return recipients.filter((recipient) => !recipient.userId || !muting.has(recipient.userId));
}
