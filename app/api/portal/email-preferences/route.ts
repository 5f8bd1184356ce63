import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { updateEmailPreferences } from "@/lib/events/preferences";

export const PUT = portalRoute(async ({ body, user }) =>
  json({ preferences: await updateEmailPreferences({ db: db(), userId: user.id, input: await body() }) }),
);
