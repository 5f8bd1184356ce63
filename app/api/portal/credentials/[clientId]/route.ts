import { json, portalRoute } from "@/lib/auth/portal-route";
import { ownCredentialOrThrow } from "@/lib/credentials/my-credentials";

export const GET = portalRoute(async ({ user, params }) => json(await ownCredentialOrThrow(user, params.clientId ?? "")));
