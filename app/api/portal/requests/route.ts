import { json, portalRoute } from "@/lib/auth/portal-route";
import { myAccessRequests } from "@/lib/access-requests/list-access-requests";
import { db } from "@/lib/db";

export const GET = portalRoute(async ({ user }) => json({ items: await myAccessRequests({ db: db(), user }) }));
