import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "../events/event-teams";

// The answers of the management API's webhook operations, documented from these schemas; the
// request bodies are lib/webhooks' own schemas.

const text = (max = 200) => z.string().max(max);
const list = <T extends z.ZodType>(item: T, max = 1000) => z.array(item).max(max);
const timestamp = z.iso.datetime().max(30).meta({ format: "date-time" });
const int32 = () => z.int32().meta({ format: "int32" });

export const teamQuerySchema = z.object({ team: z.string().min(1).max(100).meta({ description: "The team's id." }) }).strict();

export const webhookEndpointSchema = z.object({
  id: text(),
  teamId: text(),
  url: text(2000),
  events: list(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  disabledReason: text().nullable(),
  previousSecretValidUntil: timestamp.nullable().meta({ description: "Until when the secret a rotation replaced also signs; null outside a rotation." }),
  createdAt: timestamp,
});

export const webhookEndpointListSchema = z.object({ endpoints: list(webhookEndpointSchema) });

export const webhookWithSecretSchema = z.object({
  endpoint: webhookEndpointSchema,
  secret: text().meta({ description: "The signing secret, `whsec_` and base64, shown only in this answer." }),
});

const webhookDeliverySchema = z.object({
  id: text(),
  eventId: text().meta({ description: "The event's id, sent as `webhook-id`." }),
  type: text(),
  occurredAt: timestamp,
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: list(z.object({ at: timestamp, statusCode: int32().nullable(), durationMs: int32(), error: text(500).nullable() })),
  nextAttemptAt: timestamp.nullable(),
  lastError: text(500).nullable(),
  deliveredAt: timestamp.nullable(),
  createdAt: timestamp,
});

export const webhookDeliveryListSchema = z.object({ deliveries: list(webhookDeliverySchema, 50) });
export const replayedDeliverySchema = z.object({ delivery: webhookDeliverySchema });
export const deletedWebhookSchema = z.object({ deleted: text() });
