import { json, portalRoute } from "@/lib/auth/portal-route";
import { updateEnvironment } from "@/lib/environments/environments";

export const POST = portalRoute(
  async ({ request, user, params }) => json(await updateEnvironment(user, params.slug ?? "", await request.json().catch(() => null))),
  { role: "ADMIN" },
);
