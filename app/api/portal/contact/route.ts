import { json, publicPortalRoute } from "@/lib/auth/portal-route";
import { submitContact } from "@/lib/access-requests/contact";
import { db } from "@/lib/db";

export const POST = publicPortalRoute(async ({ request, user, body }) => {
  return json(await submitContact({ db: db(), input: await body(), requester: user, headers: request.headers }), 201);
});
