import { json, publicPortalRoute } from "@/lib/auth/portal-route";
import { config } from "@/lib/config";
import { signUp } from "@/lib/accounts/signup";
import { db } from "@/lib/db";

export const POST = publicPortalRoute(async ({ request, body }) => {
  return json(await signUp({ db: db(), input: await body(), mode: config().signup, headers: request.headers }), 202);
});
