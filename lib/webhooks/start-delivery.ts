import "server-only";
import { config } from "../config";
import type { Db } from "../db";
import { outboundPolicy } from "./endpoints";
import { webhookChannel } from "./webhook-channel";
import type { Channel } from "../events/channels";
import { startDeliveryWorker, type DeliveryWorker } from "../events/delivery-worker";
import { emailChannel } from "../events/email-channel";

/** The portal process's delivery worker (server.ts starts it): webhooks always, email when SMTP_URL is set. */
export function startEventDelivery(db: Db): DeliveryWorker {
  const { email, publicUrl, brand, authSecret } = config();
  const channels: Channel[] = [webhookChannel({ db, authSecret, policy: outboundPolicy() })];
  if (email) channels.push(emailChannel({ ...email, publicUrl, portalName: brand.name }));
  return startDeliveryWorker({ db, channels });
}
