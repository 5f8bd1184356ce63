import { json, portalRoute } from "@/lib/auth/portal-route";
import { createEnvironment } from "@/lib/environments/environments";

export const POST = portalRoute(async ({ request, user }) => json(await createEnvironment(user, await request.json().catch(() => null)), 201), {
  role: "ADMIN",
});
