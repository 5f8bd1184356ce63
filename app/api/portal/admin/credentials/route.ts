import { json, portalRoute } from "@/lib/auth/portal-route";
import { issueCredentialFor } from "@/lib/credentials/admin-credentials";
import { listAllCredentials } from "@/lib/credentials/credentials";
import { db } from "@/lib/db";

export const GET = portalRoute(async () => json({ items: await listAllCredentials({ db: db() }) }), { role: "ADMIN" });

export const POST = portalRoute(async ({ body, user }) => json(await issueCredentialFor({ db: db(), admin: user, input: await body() }), 201), {
  role: "ADMIN",
});
