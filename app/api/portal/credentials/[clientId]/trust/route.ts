import { json, portalRoute } from "@/lib/auth/portal-route";
import { trustMyIssuer } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const PUT = portalRoute(async ({ request, user, params }) =>
  json(await trustMyIssuer({ db: db(), user, clientId: params.clientId ?? "", input: await request.json().catch(() => null) })),
);
