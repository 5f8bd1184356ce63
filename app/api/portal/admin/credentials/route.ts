import { json, portalRoute } from "@/lib/auth/portal-route";
import { allCredentials, issueCredentialFor } from "@/lib/credentials/admin-credentials";

export const GET = portalRoute(async () => json({ items: await allCredentials() }), { role: "ADMIN" });

export const POST = portalRoute(
  async ({ request, user }) => json(await issueCredentialFor(user, await request.json().catch(() => null)), 201),
  { role: "ADMIN" },
);
