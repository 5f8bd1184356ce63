import { json, publicPortalRoute } from "@/lib/auth/portal-route";
import { config } from "@/lib/config";
import { signUp } from "@/lib/accounts/signup";

export const POST = publicPortalRoute(async ({ request }) => {
  const body = await request.json().catch(() => null);
  return json(await signUp(body, config().signup, request.headers), 202);
});
