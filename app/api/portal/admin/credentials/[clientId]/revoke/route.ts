import { json, portalRoute } from "@/lib/auth/portal-route";
import { revokeAnyCredential } from "@/lib/credentials/admin-credentials";

export const POST = portalRoute(async ({ user, params }) => json(await revokeAnyCredential(user, params.clientId ?? "")), { role: "ADMIN" });
