import "server-only";
import { config } from "../config";
import type { Db } from "../db";
import { startDeliveryWorker, type DeliveryWorker } from "./delivery-worker";
import { emailChannel } from "./email-channel";

/** The portal process's delivery worker (server.ts starts it), or none while no channel is configured. */
export function startEventDelivery(db: Db): DeliveryWorker | undefined {
  const { email, publicUrl, brand } = config();
  if (!email) return undefined;
  return startDeliveryWorker({ db, channels: [emailChannel({ ...email, publicUrl, portalName: brand.name })] });
}
