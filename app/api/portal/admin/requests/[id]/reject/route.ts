import { json, portalRoute } from "@/lib/auth/portal-route";
import { rejectAccessRequest } from "@/lib/access-requests/decide-access-request";

export const POST = portalRoute(
  async ({ request, user, params }) => json(await rejectAccessRequest(user, params.id ?? "", await request.json().catch(() => null))),
  { role: "ADMIN" },
);
