import { json, portalRoute } from "@/lib/auth/portal-route";
import { rejectAccessRequest } from "@/lib/portal/admin-access-requests";

export const POST = portalRoute(
  async ({ request, user, params }) => json(await rejectAccessRequest(user, params.id ?? "", await request.json().catch(() => null))),
  { role: "ADMIN" },
);
