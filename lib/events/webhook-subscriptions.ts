import "server-only";
import type { DbClient } from "../db";
import { isWebhookEventType, teamsOfEvent } from "./event-teams";

/** The enabled endpoints that receive an event: those of the teams it concerns that chose its type. */
export async function subscribedEndpoints(db: DbClient, type: string, payload: unknown): Promise<string[]> {
  if (!isWebhookEventType(type)) return [];
  const teamIds = await teamsOfEvent(db, type, payload);
  if (teamIds.length === 0) return [];
  const endpoints = await db.webhookEndpoint.findMany({
    where: { teamId: { in: teamIds }, enabled: true },
    select: { id: true, events: true },
    orderBy: { createdAt: "asc" },
  });
  return endpoints.filter((endpoint) => (endpoint.events as string[]).includes(type)).map((endpoint) => endpoint.id);
}
