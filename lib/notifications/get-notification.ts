import "server-only";
import { isNotificationId, notificationNotFound } from "./not-found";
import { type NotificationOwner, ownerWhere } from "./owner";
import type { StoredNotification } from "./representation";
import type { NotificationStore } from "./store";

/** One notification of the calling client, in one query; 404 when it is not theirs. */
export async function getNotification({ store, id, ...owner }: NotificationOwner & { store: NotificationStore; id: string }): Promise<StoredNotification> {
  const where = ownerWhere(owner);
  if (!isNotificationId(id)) throw notificationNotFound(id);
  const row = await store.findOne(where, id);
  if (!row) throw notificationNotFound(id);
  return row;
}
