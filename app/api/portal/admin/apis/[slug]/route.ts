import { json, portalRoute } from "@/lib/auth/portal-route";
import { updateApi } from "@/lib/api-registry/api-registry";

export const POST = portalRoute(
  async ({ request, user, params }) => json(await updateApi(user, params.slug ?? "", await request.json().catch(() => null))),
  { role: "ADMIN" },
);
