import { json, portalRoute } from "@/lib/auth/portal-route";
import { mintMyTestToken } from "@/lib/credentials/test-tokens";
import { db } from "@/lib/db";
import { processKeys } from "@/lib/oauth/process-keys";

export const POST = portalRoute(async ({ user, params }) =>
  json(await mintMyTestToken({ db: db(), keys: processKeys(), user, clientId: params.clientId ?? "" }), 201),
);
