import { json, portalRoute } from "@/lib/auth/portal-route";
import { setEnvironmentRateLimitFor } from "@/lib/environments/environments";

export const POST = portalRoute(
  async ({ request, user, params }) => json(await setEnvironmentRateLimitFor(user, params.slug ?? "", await request.json().catch(() => null))),
  { role: "ADMIN" },
);
