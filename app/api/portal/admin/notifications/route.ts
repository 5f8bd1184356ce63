import { json, portalRoute } from "@/lib/auth/portal-route";
import { composeNotification } from "@/lib/notifications/compose-notification";
import { db } from "@/lib/db";

export const POST = portalRoute(
  async ({ request, user }) => json(await composeNotification({ db: db(), admin: user, input: await request.json().catch(() => null) }), 201),
  { role: "ADMIN" },
);
