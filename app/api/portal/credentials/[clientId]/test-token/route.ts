import { json, portalRoute } from "@/lib/auth/portal-route";
import { mintMyTestToken } from "@/lib/credentials/test-tokens";
import { dataPlane } from "@/lib/data-plane/process";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ user, params }) => json(await mintMyTestToken({ db: db(), keys: dataPlane().keys, user, clientId: params.clientId ?? "" }), 201));
