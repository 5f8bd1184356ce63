import { json, portalRoute } from "@/lib/auth/portal-route";
import { ownCredentialOrThrow } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const GET = portalRoute(async ({ user, params }) => json(await ownCredentialOrThrow({ db: db(), user, clientId: params.clientId ?? "" })));
