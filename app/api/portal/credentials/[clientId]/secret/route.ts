import { json, portalRoute } from "@/lib/auth/portal-route";
import { issueMyFirstSecret } from "@/lib/credentials/my-credentials";

export const POST = portalRoute(async ({ request, user, params }) =>
  json(await issueMyFirstSecret(user, params.clientId ?? "", await request.json().catch(() => null)), 201),
);
