import "server-only";
import { actorOf } from "../audit/portal-actor";
import type { PortalUser } from "../actors/portal-user";
import type { DbClient } from "../db";
import { webhookDeliveries } from "./deliveries";
import { listWebhookEndpoints } from "./endpoints";

/** Settings → Webhooks: each of the user's teams, their role in it, its endpoints and each endpoint's delivery log. */
export async function myWebhooks({ db, user }: { db: DbClient; user: PortalUser }) {
  const actor = actorOf(user);
  const memberships = await db.teamMember.findMany({
    where: { userId: user.id },
    select: { role: true, team: { select: { id: true, name: true, personal: true } } },
    orderBy: { team: { name: "asc" } },
  });
  return Promise.all(
    memberships.map(async ({ role, team }) => {
      const endpoints = await listWebhookEndpoints({ db, actor, teamId: team.id });
      return {
        ...team,
        role,
        endpoints: await Promise.all(
          endpoints.map(async (endpoint) => ({ ...endpoint, deliveries: await webhookDeliveries({ db, actor, endpointId: endpoint.id }) })),
        ),
      };
    }),
  );
}

export type MyWebhookTeam = Awaited<ReturnType<typeof myWebhooks>>[number];
