import "server-only";
import { z } from "zod";
import type { DbClient } from "../db";
import { zodProblem } from "../http/problem";
import { EVENT_TYPE_NAMES, EVENT_TYPES, type EventType, isEventType } from "./registry";

/** The event types a user may turn off; the others (an invitation, an approved sign-up) always go out. */
export const MUTABLE_EVENT_TYPES = EVENT_TYPE_NAMES.filter((type) => EVENT_TYPES[type].mutable);

export function mutedEventTypes(stored: string): Set<EventType> {
  return new Set(stored.split(" ").filter(isEventType));
}

const ADMINS_ONLY = new Set(EVENT_TYPE_NAMES.filter((type) => (EVENT_TYPES[type] as { adminsOnly?: boolean }).adminsOnly));

async function settingsOf(db: DbClient, userId: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { emailMutedEvents: true, role: true } });
  const visible = MUTABLE_EVENT_TYPES.filter((type) => user.role === "ADMIN" || !ADMINS_ONLY.has(type));
  return { muted: mutedEventTypes(user.emailMutedEvents), visible };
}

/** Which events a user receives by email: every mutable type they can receive, on or off. */
export async function emailPreferences({ db, userId }: { db: DbClient; userId: string }) {
  const { muted, visible } = await settingsOf(db, userId);
  return visible.map((type) => ({ type, description: EVENT_TYPES[type].description, email: !muted.has(type) }));
}

export const emailPreferencesSchema = z.strictObject({ receive: z.array(z.enum(MUTABLE_EVENT_TYPES as [EventType, ...EventType[]])) });

/**
 * Stores the types the user still wants by email: every other type they can receive is muted;
 * the choice on a type they cannot receive (an administrators' event, for a developer) is kept.
 */
export async function updateEmailPreferences({ db, userId, input }: { db: DbClient; userId: string; input: unknown }) {
  const parsed = emailPreferencesSchema.safeParse(input);
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const receive = new Set(parsed.data.receive);
  const { muted, visible } = await settingsOf(db, userId);
  const stillMuted = MUTABLE_EVENT_TYPES.filter((type) => (visible.includes(type) ? !receive.has(type) : muted.has(type)));
  await db.user.update({ where: { id: userId }, data: { emailMutedEvents: stillMuted.join(" ") } });
  return emailPreferences({ db, userId });
}
