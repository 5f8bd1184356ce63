import type { NotificationOwner } from "../data-plane/notifications";

/**
 * Prisma reads an `undefined` filter as "no filter", so an owner with a
 * missing id would match everyone's notifications: refuse it outright.
 */
export function ownerWhere({ environmentId, clientId }: NotificationOwner): NotificationOwner {
  if (!environmentId || !clientId) throw new Error("notifications need both an environment id and a client id");
  return { environmentId, clientId };
}
