import { decideConsent } from "@/lib/agents/decide-consent";
import { portalRoute } from "@/lib/auth/portal-route";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { readForm } from "@/lib/http/form-body";

/** The consent page's form: 303 to the agent's redirect URI with a code, or with access_denied. */
export const POST = portalRoute(async ({ request, user }) => {
  const location = await decideConsent({
    db: db(),
    userId: user.id,
    authSecret: config().authSecret,
    publicUrl: config().publicUrl,
    form: await readForm(request),
  });
  return new Response(null, { status: 303, headers: { location } });
});
