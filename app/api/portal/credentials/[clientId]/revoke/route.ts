import { json, portalRoute } from "@/lib/auth/portal-route";
import { revokeMyCredential } from "@/lib/credentials/my-credentials";

export const POST = portalRoute(async ({ user, params }) => json(await revokeMyCredential(user, params.clientId ?? "")));
