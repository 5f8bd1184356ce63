import { json, portalRoute } from "@/lib/auth/portal-route";
import { revokeAnyCredential } from "@/lib/credentials/admin-credentials";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ user, params }) => json(await revokeAnyCredential({ db: db(), admin: user, clientId: params.clientId ?? "" })), {
  role: "ADMIN",
});
