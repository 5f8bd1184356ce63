import "server-only";
import { getServerSession } from "next-auth";
import { notFound, redirect } from "next/navigation";
import type { PortalUser } from "../actors/portal-user";
import { db, type Role } from "../db";
import { problem } from "../http/problem";
import { authOptions } from "./options";

/**
 * The signed-in user as the database knows them now: role changes and
 * disabled accounts take effect on the next request, not at token expiry.
 */
export async function currentUser(): Promise<PortalUser | null> {
  const session = await getServerSession(authOptions());
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  const user = await db().user.findUnique({ where: { id } });
  if (!user || user.disabledAt) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

function loginPath(returnTo: string): string {
  return `/login?callbackUrl=${encodeURIComponent(returnTo)}`;
}

/** For pages: the signed-in user, or a redirect to the sign-in page that comes back here. */
export async function requireUser(returnTo: string): Promise<PortalUser> {
  const user = await currentUser();
  if (!user) redirect(loginPath(returnTo));
  return user;
}

/** For pages: an admin, or the sign-in page; a developer never learns what is there (proxy.ts answers 403 first). */
export async function requireAdmin(returnTo: string): Promise<PortalUser> {
  const user = await requireUser(returnTo);
  if (user.role !== "ADMIN") notFound();
  return user;
}

/** For route handlers: 401 without a session, 403 without the role. */
export async function apiUser(role?: Role): Promise<PortalUser> {
  const user = await currentUser();
  if (!user) throw problem("unauthenticated", { detail: "This action needs a signed-in user." });
  if (role && user.role !== role) {
    throw problem("forbidden", { detail: `This action needs the ${role} role.` });
  }
  return user;
}
