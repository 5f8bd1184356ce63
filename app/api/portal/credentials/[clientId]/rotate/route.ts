import { json, portalRoute } from "@/lib/auth/portal-route";
import { rotateMySecret } from "@/lib/credentials/my-credentials";

export const POST = portalRoute(async ({ request, user, params }) =>
  json(await rotateMySecret(user, params.clientId ?? "", await request.json().catch(() => null)), 201),
);
