import { json, portalRoute } from "@/lib/auth/portal-route";
import { revokeMyCredential } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ user, params }) => json(await revokeMyCredential({ db: db(), user, clientId: params.clientId ?? "" })));
