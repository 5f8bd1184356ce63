import { json, portalRoute } from "@/lib/auth/portal-route";
import { rotateMySecret } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user, params }) =>
  json(await rotateMySecret({ db: db(), user, clientId: params.clientId ?? "", input: await body() }), 201),
);
