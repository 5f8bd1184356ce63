import { json, portalRoute } from "@/lib/auth/portal-route";
import { setMyCredentialDpop } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const PUT = portalRoute(async ({ body, user, params }) =>
  json(await setMyCredentialDpop({ db: db(), user, clientId: params.clientId ?? "", input: await body() })),
);
