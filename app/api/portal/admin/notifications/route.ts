import { json, portalRoute } from "@/lib/auth/portal-route";
import { composeNotification } from "@/lib/notifications/compose-notification";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user }) => json(await composeNotification({ db: db(), admin: user, input: await body() }), 201), {
  role: "ADMIN",
});
