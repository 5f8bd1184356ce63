import { json, portalRoute } from "@/lib/auth/portal-route";
import { createUser } from "@/lib/accounts/users";

export const POST = portalRoute(async ({ request, user }) => json(await createUser(user, await request.json().catch(() => null)), 201), {
  role: "ADMIN",
});
