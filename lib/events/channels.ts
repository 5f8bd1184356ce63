import "server-only";

/** One delivery as a channel sees it: the event, and where this copy goes. */
export type OutgoingDelivery = {
  id: string;
  address: string;
  event: { id: string; type: string; payload: unknown; occurredAt: Date };
};

/**
 * A way out of the portal (email; webhooks add another). `send` resolves once the other side
 * has accepted the delivery and rejects otherwise; the worker retries a rejection.
 */
export type Channel = {
  name: string;
  send(delivery: OutgoingDelivery): Promise<void>;
  close(): void;
};
