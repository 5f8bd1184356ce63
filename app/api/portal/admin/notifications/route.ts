import { json, portalRoute } from "@/lib/auth/portal-route";
import { composeNotification } from "@/lib/notifications/compose-notification";

export const POST = portalRoute(
  async ({ request, user }) => json(await composeNotification(user, await request.json().catch(() => null)), 201),
  { role: "ADMIN" },
);
