import type { PortalUser } from "../actors/portal-user";
import type { Actor } from "./write-audit";

/** How a signed-in user appears in the audit log. */
export function actorOf(user: PortalUser): Actor {
  return { userId: user.id, label: user.email };
}
