import "server-only";

/** One delivery as a channel sees it: the event, and where this copy goes. */
export type OutgoingDelivery = {
  id: string;
  address: string;
  event: { id: string; type: string; payload: unknown; occurredAt: Date };
};

/**
 * A way out of the portal (email; webhooks add another). `send` resolves once the other side
 * has accepted the delivery and rejects otherwise; the worker retries a rejection, except a
 * `PermanentDeliveryError`.
 */
export type Channel = {
  name: string;
  send(delivery: OutgoingDelivery): Promise<void>;
  close(): void;
};

/** The channel of the deliveries to a team's webhook endpoints, whose address is the endpoint's id. */
export const WEBHOOK_CHANNEL = "webhook";

/** A refusal that no retry can change, such as an SMTP 5xx reply: the delivery fails at once. */
export class PermanentDeliveryError extends Error {}
