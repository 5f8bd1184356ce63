import { json, portalRoute } from "@/lib/auth/portal-route";
import { approveAccessRequest } from "@/lib/access-requests/decide-access-request";

export const POST = portalRoute(async ({ user, params }) => json(await approveAccessRequest(user, params.id ?? "")), { role: "ADMIN" });
