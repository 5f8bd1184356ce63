import type { Role } from "../db";

/**
 * A signed-in user of the portal, as the services that act for them take it. Declared apart from
 * lib/auth/session.ts, which reads it from next-auth's session, so that the domain names it
 * without importing Next.
 */
export type PortalUser = { id: string; email: string; name: string; role: Role };
