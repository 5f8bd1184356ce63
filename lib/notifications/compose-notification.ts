import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { type DbClient, inTransaction } from "../db";
import { validationProblem, zodProblem } from "../http/problem";
import { createNotifications } from "./create-notifications";
import { recordAudit } from "../audit/write-audit";
import { actorOf } from "../audit/portal-actor";

export const composeSchema = z.strictObject({
  environment: z.string().trim().min(1, "Choose an environment"),
  clientId: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((value) => value || undefined),
  title: z.string().trim().min(1, "Write a title").max(200),
  body: z.string().max(4000).default(""),
  category: z.enum(["system", "security", "billing", "release", "account"]).default("system"),
  severity: z.enum(["info", "warning", "critical"]).default("info"),
});

/** Sends one notification to a client, or to every active client of the environment when no client is named. */
export async function composeNotification({ db, admin, input }: { db: DbClient; admin: PortalUser; input: unknown }) {
  const parsed = composeSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const { environment: slug, clientId, ...fields } = parsed.data;
  const environment = await db.environment.findUnique({ where: { slug } });
  if (!environment) throw validationProblem([{ in: "body", field: "environment", message: "There is no such environment" }]);
  return inTransaction(db, async (tx) => {
    const ids = await createNotifications({
      db: tx,
      environmentId: environment.id,
      recipients: clientId ? { clientIds: [clientId] } : "all-clients",
      ...fields,
    });
    await recordAudit(tx, actorOf(admin), {
      action: "notification.compose",
      targetType: "environment",
      targetId: slug,
      details: { recipients: clientId ?? "all-clients", count: ids.length, title: fields.title },
    });
    return { ids };
  });
}
