import { json, portalRoute } from "@/lib/auth/portal-route";
import { ownCredentialOrThrow } from "@/lib/portal/my-credentials";

export const GET = portalRoute(async ({ user, params }) => json(await ownCredentialOrThrow(user, params.clientId ?? "")));
