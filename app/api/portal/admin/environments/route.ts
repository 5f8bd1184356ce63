import { json, portalRoute } from "@/lib/auth/portal-route";
import { createEnvironment } from "@/lib/environments/environments";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user }) => json(await createEnvironment({ db: db(), admin: user, input: await body() }), 201), {
  role: "ADMIN",
});
