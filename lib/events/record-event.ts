import "server-only";
import { config } from "../config";
import type { Tx } from "../db";
import { newId } from "../ids";
import { mutedEventTypes } from "./preferences";
import type { Recipient } from "./recipients";
import { definitionOf, EVENT_TYPES, type EventPayload, type EventType } from "./registry";

/** The channels deliveries are made for: email when SMTP_URL is set, none otherwise. */
export function deliveryChannels(): string[] {
  return config().email ? ["email"] : [];
}

/**
 * Writes an event and one pending delivery per recipient and channel, in the transaction of
 * the change that causes it: the event commits with the change or not at all
 * (docs/decisions/032-event-outbox.md). Recipients who muted the type get no email.
 */
export async function recordEvent<Type extends EventType>(tx: Tx, type: Type, payload: EventPayload<Type>): Promise<string> {
  const definition = definitionOf(type);
  const parsed = definition.payload.parse(payload);
  const eventId = newId("evt");
  await tx.outboxEvent.create({ data: { id: eventId, type, payload: parsed as object, ...definition.subject(parsed) } });
  const channels = deliveryChannels();
  if (channels.length === 0) return eventId;
  const wanted = await wantedBy(tx, type, await definition.recipients(tx, parsed));
  await tx.eventDelivery.createMany({
    data: channels.flatMap((channel) =>
      wanted.map((recipient) => ({ id: newId("dlv"), eventId, channel, address: recipient.email, userId: recipient.userId })),
    ),
  });
  return eventId;
}

async function wantedBy(tx: Tx, type: EventType, recipients: Recipient[]) {
  if (!EVENT_TYPES[type].mutable) return recipients;
  const userIds = recipients.flatMap((recipient) => (recipient.userId ? [recipient.userId] : []));
  const users = await tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, emailMutedEvents: true } });
  const muting = new Set(users.filter((user) => mutedEventTypes(user.emailMutedEvents).has(type)).map((user) => user.id));
  return recipients.filter((recipient) => !recipient.userId || !muting.has(recipient.userId));
}
