import { json, portalRoute } from "@/lib/auth/portal-route";
import { approveAccessRequest } from "@/lib/access-requests/decide-access-request";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ user, params }) => json(await approveAccessRequest({ db: db(), admin: user, id: params.id ?? "" })), {
  role: "ADMIN",
});
