import { json, portalRoute } from "@/lib/auth/portal-route";
import { changeUser } from "@/lib/accounts/users";

export const POST = portalRoute(
  async ({ request, user, params }) => json(await changeUser(user, params.id ?? "", await request.json().catch(() => null))),
  { role: "ADMIN" },
);
