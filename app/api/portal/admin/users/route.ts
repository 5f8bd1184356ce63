import { json, portalRoute } from "@/lib/auth/portal-route";
import { createUser } from "@/lib/accounts/users";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user }) => json(await createUser({ db: db(), admin: user, input: await body() }), 201), {
  role: "ADMIN",
});
