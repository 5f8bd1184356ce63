import type { z } from "zod";
import type { NotificationOwner } from "../data-plane/notifications";
import { listNotificationsQuerySchema } from "./schemas";

function keyPart(value: unknown): string {
  if (value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  return Array.isArray(value) ? value.join(",") : String(value);
}

/**
 * The key of a kept page: the owner and every field of the validated query, in the
 * schema's order. A filter added to the schema is part of the key without an edit
 * here, so two requests that differ in it never share a kept page.
 */
export function pageKeyOf<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>): (owner: NotificationOwner, query: z.output<z.ZodObject<Shape>>) => string {
  const fields = Object.keys(schema.shape);
  return (owner, query) => [owner.environmentId, owner.clientId, ...fields.map((field) => keyPart((query as Record<string, unknown>)[field]))].join("\u0000");
}

export const pageKey = pageKeyOf(listNotificationsQuerySchema);
