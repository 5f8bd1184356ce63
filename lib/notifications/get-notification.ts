import "server-only";
import type { Db } from "../db";
import { isNotificationId, notificationNotFound } from "./not-found";
import { type NotificationOwner, ownerWhere } from "./owner";
import type { StoredNotification } from "./representation";

/** One notification of the calling client, in one query; 404 when it is not theirs. */
export async function getNotification({ db, id, ...owner }: NotificationOwner & { db: Db; id: string }): Promise<StoredNotification> {
  const { environmentId, clientId } = ownerWhere(owner);
  if (!isNotificationId(id)) throw notificationNotFound(id);
  const [row] = await db.$queryRaw<StoredNotification[]>`
    SELECT * FROM "Notification" WHERE "id" = ${id} AND "environmentId" = ${environmentId} AND "clientId" = ${clientId}`;
  if (!row) throw notificationNotFound(id);
  return row;
}
