import { json, portalRoute } from "@/lib/auth/portal-route";
import { mintMyTestToken } from "@/lib/credentials/test-tokens";

export const POST = portalRoute(async ({ user, params }) => json(await mintMyTestToken(user, params.clientId ?? ""), 201));
