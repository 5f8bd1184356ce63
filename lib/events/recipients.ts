import "server-only";
import type { DbClient } from "../db";

/** Someone an event is sent to: a portal user, or only an address (an invitation to someone without an account). */
export type Recipient = { userId: string | null; email: string };

/** The user, unless the account is gone or disabled. */
export async function activeUser(db: DbClient, userId: string | null): Promise<Recipient[]> {
  if (!userId) return [];
  const user = await db.user.findFirst({ where: { id: userId, disabledAt: null }, select: { id: true, email: true } });
  return user ? [{ userId: user.id, email: user.email }] : [];
}

/**
 * Whoever created the credential's application, while they are still a member of the team that
 * owns it: someone removed from the team hears nothing more of its applications.
 */
export async function applicationOwner(db: DbClient, credential: { ownerId: string | null; clientId: string }): Promise<Recipient[]> {
  if (!credential.ownerId) return [];
  const user = await db.user.findFirst({
    where: {
      id: credential.ownerId,
      disabledAt: null,
      teams: { some: { team: { applications: { some: { credentials: { some: { clientId: credential.clientId } } } } } } },
    },
    select: { id: true, email: true },
  });
  return user ? [{ userId: user.id, email: user.email }] : [];
}

/** Every active administrator: they decide access requests and sign-ups. */
export async function activeAdmins(db: DbClient): Promise<Recipient[]> {
  const admins = await db.user.findMany({ where: { role: "ADMIN", disabledAt: null }, select: { id: true, email: true }, orderBy: { createdAt: "asc" } });
  return admins.map((admin) => ({ userId: admin.id, email: admin.email }));
}

/** The owners of applications with an active credential granted the API. */
export async function apiConsumers(db: DbClient, apiSlug: string): Promise<Recipient[]> {
  const owners = await db.user.findMany({
    where: {
      disabledAt: null,
      teams: { some: { team: { applications: { some: { credentials: { some: { status: "ACTIVE", grants: { some: { api: { slug: apiSlug } } } } } } } } } },
    },
    select: { id: true, email: true },
    orderBy: { createdAt: "asc" },
  });
  return owners.map((owner) => ({ userId: owner.id, email: owner.email }));
}
