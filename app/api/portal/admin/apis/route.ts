import { json, portalRoute } from "@/lib/auth/portal-route";
import { createApi } from "@/lib/api-registry/api-registry";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user }) => json(await createApi({ db: db(), admin: user, input: await body() }), 201), {
  role: "ADMIN",
});
