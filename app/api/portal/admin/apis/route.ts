import { json, portalRoute } from "@/lib/auth/portal-route";
import { createApi } from "@/lib/api-registry/api-registry";

export const POST = portalRoute(async ({ request, user }) => json(await createApi(user, await request.json().catch(() => null)), 201), {
  role: "ADMIN",
});
