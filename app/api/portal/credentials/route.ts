import { json, portalRoute } from "@/lib/auth/portal-route";
import { myApplications } from "@/lib/credentials/my-credentials";
import { createNewCredential } from "@/lib/credentials/new-credential";
import { db } from "@/lib/db";

export const GET = portalRoute(async ({ user }) => json({ applications: await myApplications({ db: db(), user }) }));

export const POST = portalRoute(async ({ body, user }) => {
  const { credential, secret } = await createNewCredential({ db: db(), input: await body(), by: { user } });
  return json({ credential, secret }, 201);
});
