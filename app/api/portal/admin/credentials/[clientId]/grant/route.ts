import { json, portalRoute } from "@/lib/auth/portal-route";
import { grantApiFor } from "@/lib/credentials/admin-credentials";
import { db } from "@/lib/db";

export const POST = portalRoute(
  async ({ body, user, params }) => json(await grantApiFor({ db: db(), admin: user, clientId: params.clientId ?? "", input: await body() })),
  { role: "ADMIN" },
);
