import { json, portalRoute } from "@/lib/auth/portal-route";
import { createMyCredential, myApplications } from "@/lib/credentials/my-credentials";

export const GET = portalRoute(async ({ user }) => json({ applications: await myApplications(user) }));

export const POST = portalRoute(async ({ request, user }) => {
  const { credential, secret } = await createMyCredential(user, await request.json().catch(() => null));
  return json({ credential, secret }, 201);
});
