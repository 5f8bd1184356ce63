import "server-only";
import type { Db } from "../db";
import { type Channel, type OutgoingDelivery, PermanentDeliveryError, WEBHOOK_CHANNEL } from "../events/channels";
import { newId } from "../ids";
import { type OutboundPolicy, outboundRequest } from "../outbound/outbound-request";
import { unsealWebhookSecret, signatureHeader } from "./signing";

/** One attempt's bounds: a slow or chatty receiver costs a retry, never a stuck worker. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_MAX_RESPONSE_BYTES = 16 * 1024;
const ERROR_LENGTH = 500;

export type WebhookChannelSettings = { db: Db; authSecret: string; policy: OutboundPolicy };

/** The body every endpoint receives, as Standard Webhooks suggests: the type, when it happened and its payload. */
export function webhookBody(event: OutgoingDelivery["event"]): string {
  return JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data: event.payload });
}

/**
 * POSTs a delivery to its endpoint (the delivery's address is the endpoint's id), signed per
 * Standard Webhooks. `webhook-id` is the event's id, the same on every retry and replay, so a
 * receiver can drop what it has already handled. 2xx delivers; 410 Gone disables the endpoint;
 * anything else, and any refusal of the outbound policy (checked again on each attempt, so a
 * host name that comes to resolve to a private address is caught), is retried.
 */
export function webhookChannel(settings: WebhookChannelSettings): Channel {
  const { db } = settings;
  return {
    name: WEBHOOK_CHANNEL,
    async send(delivery: OutgoingDelivery) {
      const endpoint = await db.webhookEndpoint.findUnique({ where: { id: delivery.address } });
      if (!endpoint) throw new PermanentDeliveryError("the endpoint was deleted");
      if (!endpoint.enabled) throw new PermanentDeliveryError(`the endpoint is disabled (${endpoint.disabledReason ?? "no reason given"})`);
      const secrets = [endpoint.secretSealed];
      if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date()) {
        secrets.push(endpoint.previousSecretSealed);
      }
      const body = webhookBody(delivery.event);
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        "content-type": "application/json",
        "user-agent": "Gatehouse-Webhooks",
        "webhook-id": delivery.event.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatureHeader({
          id: delivery.event.id,
          timestamp,
          body,
          secrets: secrets.map((sealed) => unsealWebhookSecret(sealed, settings.authSecret)),
        }),
      };
      const started = performance.now();
      const outcome = await outboundRequest(
        endpoint.url,
        { timeoutMs: WEBHOOK_TIMEOUT_MS, maxBytes: WEBHOOK_MAX_RESPONSE_BYTES, ...settings.policy },
        { method: "POST", headers, body },
      ).then(
        (response) => ({ statusCode: response.status, error: response.status >= 200 && response.status < 300 ? null : `answered ${response.status}` }),
        (error: Error) => ({ statusCode: null, error: error.message.slice(0, ERROR_LENGTH) }),
      );
      await db.webhookAttempt.create({
        data: {
          id: newId("wha"),
          deliveryId: delivery.id,
          statusCode: outcome.statusCode,
          durationMs: Math.round(performance.now() - started),
          error: outcome.error,
        },
      });
      if (outcome.statusCode === 410) {
        await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false, disabledReason: "the endpoint answered 410 Gone" } });
        throw new PermanentDeliveryError("the endpoint answered 410 Gone and was disabled");
      }
      if (outcome.error) throw new Error(outcome.error);
    },
    close() {},
  };
}
