import { actorOf } from "@/lib/audit/portal-actor";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";
import { acceptInvitation } from "@/lib/teams/invitations";

export const POST = portalRoute(async ({ user, params }) => json(await acceptInvitation({ db: db(), actor: actorOf(user), user, token: params.token ?? "" })));
