import "server-only";
import { recordAudit, SYSTEM_ACTOR } from "../audit/write-audit";
import { config } from "../config";
import { type Db, inTransaction } from "../db";
import { isUniqueViolation } from "../database/unique-violation";
import { newId } from "../ids";
import { createNotifications } from "../notifications/create-notifications";
import { notificationBodySchema } from "../notifications/schemas";
import {
  type ClientCalls,
  type Deprecation,
  type DeprecationSubject,
  deprecationName,
  deprecationUsage,
  loadDeprecation,
  subjectKey,
  utcMinute,
} from "./deprecation-usage";

/** Operations named one by one in a notice; a client calling more reads how many more. */
const LISTED_OPERATIONS = 20;

const VERSION_ORDER = new Intl.Collator("en", { numeric: true });

export type DeprecationNoticeResult =
  /** `clientCount` clients were notified, possibly none */
  | { sent: true; clientCount: number }
  /** the notice of this subject went out before (or is going out from another process) */
  | { sent: false; reason: "already-sent" }
  | { sent: false; reason: "unknown-subject" };

/** The version a client should move to: the current one, else the next version that is neither deprecated nor retired. */
async function successorOf(db: Db, deprecation: Deprecation): Promise<string | null> {
  const versions = await db.apiVersion.findMany({ where: { apiId: deprecation.api.id }, select: { version: true, status: true } });
  const live = versions.filter((row) => row.version !== deprecation.version && (row.status === "current" || row.status === "beta"));
  const current = live.filter((row) => row.status === "current").map((row) => row.version);
  const later = live.map((row) => row.version).filter((version) => VERSION_ORDER.compare(version, deprecation.version) > 0);
  return current.toSorted(VERSION_ORDER.compare).at(-1) ?? later.toSorted(VERSION_ORDER.compare)[0] ?? null;
}

/** The notice one client reads: what it called of the deprecated thing, how often, when last, the sunset and where to go. */
export function noticeText(deprecation: Deprecation, client: ClientCalls, { days, successor }: { days: number; successor: string | null }) {
  const listed = client.operations.slice(0, LISTED_OPERATIONS).map((operation) => {
    const calls = operation.count === 1 ? "1 call" : `${operation.count} calls`;
    return `- ${operation.method} ${operation.route}: ${calls}, last at ${utcMinute(operation.lastCalledAt)}`;
  });
  const more = client.operations.length - listed.length;
  const lines = [
    `${deprecationName(deprecation)} is deprecated. In the last ${days} days your client ${client.clientId} called it ${client.count === 1 ? "once" : `${client.count} times`}:`,
    ...listed,
    ...(more > 0 ? [`- and ${more} more operations`] : []),
    "",
    deprecation.sunsetAt
      ? `Sunset: ${utcMinute(deprecation.sunsetAt)}. After it the gateway answers these calls with 410 Gone.`
      : "No sunset date is set yet; it will be announced in the gateway's Sunset header.",
    successor ? `Move to ${successor}: the API page shows what changed between the versions.` : "The API page says what to use instead.",
  ];
  return {
    title: `${deprecationName(deprecation)} is deprecated`.slice(0, 200),
    body: lines.join("\n").slice(0, notificationBodySchema.maxLength ?? 4000),
  };
}

/**
 * Tells every client that called a deprecated version or operation in the last `days`
 * (default 30), through the Notifications API, what it called of it (one notification per
 * environment and client; a client that called none gets nothing), and records the notice.
 * The DeprecationNotice row commits with the notifications under its unique subject, so a
 * second call, in this process or another, sends nothing.
 */
export async function sendDeprecationNotices(
  db: Db,
  { subject, days = 30, now = new Date(), publicUrl = config().publicUrl }: { subject: DeprecationSubject; days?: number; now?: Date; publicUrl?: string },
): Promise<DeprecationNoticeResult> {
  const key = subjectKey(subject);
  if (await db.deprecationNotice.findUnique({ where: { subject: key } })) return { sent: false, reason: "already-sent" };
  const deprecation = await loadDeprecation(db, subject);
  if (!deprecation) return { sent: false, reason: "unknown-subject" };
  const [clients, successor, environments] = await Promise.all([
    deprecationUsage(db, deprecation, { days, now }),
    successorOf(db, deprecation),
    db.environment.findMany({ select: { id: true, slug: true } }),
  ]);
  const environmentIds = new Map(environments.map((environment) => [environment.slug, environment.id]));
  const link = `${publicUrl}/apis/${encodeURIComponent(deprecation.api.slug)}${successor ? `?version=${encodeURIComponent(successor)}` : ""}`;
  const active = new Set(
    (await db.credential.findMany({ where: { status: "ACTIVE", clientId: { in: clients.map((client) => client.clientId) } }, select: { clientId: true } })).map(
      (credential) => credential.clientId,
    ),
  );
  // A revoked client cannot read its notifications, and an environment deleted since the call has no inbox.
  const recipients = clients.filter((client) => active.has(client.clientId) && environmentIds.has(client.environment));
  try {
    await inTransaction(db, async (tx) => {
      await tx.deprecationNotice.create({ data: { id: newId("dpn"), subject: key, sentAt: now, clientCount: recipients.length } });
      for (const client of recipients) {
        await createNotifications({
          db: tx,
          environmentId: environmentIds.get(client.environment)!,
          recipients: { clientIds: [client.clientId] },
          ...noticeText(deprecation, client, { days, successor }),
          category: "release",
          severity: "warning",
          link,
          createdAt: now,
        });
      }
      await recordAudit(tx, SYSTEM_ACTOR, {
        action: "api.deprecation-notice",
        targetType: "api",
        targetId: deprecation.api.slug,
        details: { subject: key, version: deprecation.version, operation: deprecation.operation, clients: recipients.length },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { sent: false, reason: "already-sent" };
    throw error;
  }
  return { sent: true, clientCount: recipients.length };
}
