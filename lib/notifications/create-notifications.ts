import "server-only";
import type { DbClient } from "../db";
import { problem, validationProblem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { type CreateNotificationInput, createNotificationInputSchema } from "./schemas";

type CreateNotificationsArgs = CreateNotificationInput & {
  db: DbClient;
  environmentId: string;
  /** the client ids to notify, or every active client of the environment */
  recipients: { clientIds: string[] } | "all-clients";
  /** when it happened; defaults to now (the seed backdates) */
  createdAt?: Date;
};

async function recipientClientIds(db: DbClient, environmentId: string, recipients: CreateNotificationsArgs["recipients"]): Promise<string[]> {
  if (recipients === "all-clients") {
    const credentials = await db.credential.findMany({ where: { environmentId, status: "ACTIVE" }, select: { clientId: true } });
    return credentials.map((credential) => credential.clientId);
  }
  const wanted = [...new Set(recipients.clientIds)];
  if (wanted.length === 0) throw validationProblem([{ in: "body", field: "clientIds", message: "must name at least one client" }]);
  const known = new Set(
    (await db.credential.findMany({ where: { environmentId, status: "ACTIVE", clientId: { in: wanted } }, select: { clientId: true } })).map(
      (credential) => credential.clientId,
    ),
  );
  const unknown = wanted.filter((clientId) => !known.has(clientId));
  if (unknown.length > 0) {
    throw validationProblem([{ in: "body", field: "clientIds", message: `no client ${unknown.join(", ")} in this environment` }]);
  }
  return wanted;
}

/**
 * One notification per recipient client, all created in one statement.
 * Used by the seed, the admin command line and the admin console.
 */
export async function createNotifications({ db, environmentId, recipients, createdAt, ...fields }: CreateNotificationsArgs): Promise<string[]> {
  if (!environmentId) throw problem("validation-failed", { detail: "An environment is required." });
  const input = createNotificationInputSchema.safeParse(fields);
  if (!input.success) throw zodProblem(input.error, "body");
  const clientIds = await recipientClientIds(db, environmentId, recipients);
  const at = createdAt ?? new Date();
  const rows = clientIds.map((clientId) => ({ id: newId("ntf"), environmentId, clientId, ...input.data, createdAt: at, updatedAt: at }));
  // Inserted in client order: each insert takes its client's count of changes (NotificationChanges) until
  // commit, and two sends taking them in different orders could deadlock on PostgreSQL.
  if (rows.length > 0) await db.notification.createMany({ data: rows.toSorted((a, b) => (a.clientId < b.clientId ? -1 : 1)) });
  return rows.map((row) => row.id);
}
