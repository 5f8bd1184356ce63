import { json, portalRoute } from "@/lib/auth/portal-route";
import { myAccessRequests } from "@/lib/portal/access-requests";

export const GET = portalRoute(async ({ user }) => json({ items: await myAccessRequests(user) }));
