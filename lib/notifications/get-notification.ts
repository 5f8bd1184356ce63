import "server-only";
import type { NotificationOwner, NotificationStore, StoredNotification } from "../data-plane/notifications";
import { isNotificationId, notificationNotFound } from "./not-found";
import { ownerWhere } from "./owner";

/** One notification of the calling client, in one query; 404 when it is not theirs. */
export async function getNotification({ store, id, ...owner }: NotificationOwner & { store: NotificationStore; id: string }): Promise<StoredNotification> {
  const where = ownerWhere(owner);
  if (!isNotificationId(id)) throw notificationNotFound(id);
  const row = await store.findOne(where, id);
  if (!row) throw notificationNotFound(id);
  return row;
}
