import { json, portalRoute } from "@/lib/auth/portal-route";
import { issueMyFirstSecret } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const POST = portalRoute(async ({ body, user, params }) =>
  json(await issueMyFirstSecret({ db: db(), user, clientId: params.clientId ?? "", input: await body() }), 201),
);
