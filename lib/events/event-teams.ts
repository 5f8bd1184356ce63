import "server-only";
import type { z } from "zod";
import type { DbClient } from "../db";
import type { EVENT_TYPES, EventType } from "./registry";

type Payload<Type extends EventType> = z.output<(typeof EVENT_TYPES)[Type]["payload"]>;
type TeamsOf<Type extends EventType> = (db: DbClient, payload: Payload<Type>) => Promise<string[]>;

async function credentialTeam(db: DbClient, clientId: string | null): Promise<string[]> {
  if (!clientId) return [];
  const credential = await db.credential.findUnique({ where: { clientId }, select: { application: { select: { teamId: true } } } });
  return credential?.application.teamId ? [credential.application.teamId] : [];
}

const ofCredential = (db: DbClient, payload: { clientId: string }) => credentialTeam(db, payload.clientId);

/**
 * The event types a team's webhook endpoints can receive, each with the teams it concerns:
 * the team owning the credential's application, or every team with an active credential
 * granted the deprecated API. Sign-ups, submitted requests (administrators' business) and
 * invitations (addressed to one person) stay off webhooks.
 */
export const WEBHOOK_EVENT_TEAMS = {
  "credential.created": ofCredential,
  "quota.threshold": ofCredential,
  "credential.rotated": ofCredential,
  "credential.revoked": ofCredential,
  "credential.secret_expiring": ofCredential,
  "api_key.expiring": ofCredential,
  "api_key.leaked": ofCredential,
  "access_request.decided": (db, payload) => credentialTeam(db, payload.clientId),
  "api.deprecated": async (db, payload) => {
    const teams = await db.team.findMany({
      where: { applications: { some: { credentials: { some: { status: "ACTIVE", grants: { some: { api: { slug: payload.api } } } } } } } },
      select: { id: true },
      orderBy: { createdAt: "asc" },
    });
    return teams.map((team) => team.id);
  },
} satisfies { [Type in EventType]?: TeamsOf<Type> };

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TEAMS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_TEAMS) as [WebhookEventType, ...WebhookEventType[]];

export function isWebhookEventType(type: string): type is WebhookEventType {
  return Object.hasOwn(WEBHOOK_EVENT_TEAMS, type);
}

/** The teams an event concerns, for a payload already parsed by its type's schema. */
export function teamsOfEvent(db: DbClient, type: WebhookEventType, payload: unknown): Promise<string[]> {
  return (WEBHOOK_EVENT_TEAMS[type] as (db: DbClient, payload: unknown) => Promise<string[]>)(db, payload);
}
