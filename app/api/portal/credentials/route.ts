import { json, portalRoute } from "@/lib/auth/portal-route";
import { createMyCredential, myApplications } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const GET = portalRoute(async ({ user }) => json({ applications: await myApplications({ db: db(), user }) }));

export const POST = portalRoute(async ({ request, user }) => {
  const { credential, secret } = await createMyCredential({ db: db(), user, input: await request.json().catch(() => null) });
  return json({ credential, secret }, 201);
});
