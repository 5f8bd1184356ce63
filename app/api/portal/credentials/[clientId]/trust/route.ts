import { json, portalRoute } from "@/lib/auth/portal-route";
import { trustMyIssuer } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const PUT = portalRoute(async ({ body, user, params }) =>
  json(await trustMyIssuer({ db: db(), user, clientId: params.clientId ?? "", input: await body() })),
);
