import { json, publicPortalRoute } from "@/lib/auth/portal-route";
import { submitContact } from "@/lib/access-requests/contact";

export const POST = publicPortalRoute(async ({ request, user }) => {
  const body = await request.json().catch(() => null);
  return json(await submitContact(body, user, request.headers), 201);
});
