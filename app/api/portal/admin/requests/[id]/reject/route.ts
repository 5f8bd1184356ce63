import { json, portalRoute } from "@/lib/auth/portal-route";
import { rejectAccessRequest } from "@/lib/access-requests/decide-access-request";
import { db } from "@/lib/db";

export const POST = portalRoute(
  async ({ body, user, params }) => json(await rejectAccessRequest({ db: db(), admin: user, id: params.id ?? "", input: await body() })),
  { role: "ADMIN" },
);
