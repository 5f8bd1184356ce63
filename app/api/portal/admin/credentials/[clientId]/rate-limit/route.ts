import { json, portalRoute } from "@/lib/auth/portal-route";
import { setCredentialRateLimitFor } from "@/lib/credentials/admin-credentials";

export const POST = portalRoute(
  async ({ request, user, params }) => json(await setCredentialRateLimitFor(user, params.clientId ?? "", await request.json().catch(() => null))),
  { role: "ADMIN" },
);
