import "server-only";
import { z } from "zod";
import { type Actor, recordAudit } from "../audit/write-audit";
import { config } from "../config";
import { type DbClient, inTransaction } from "../db";
import { problem, validationProblem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { checkOutboundUrl, OutboundError, type OutboundPolicy } from "../outbound/outbound-request";
import { WEBHOOK_EVENT_TYPES } from "../events/event-teams";
import { newWebhookSecret } from "./signing";
import { assertTeamAccess, type WebhookAccess } from "./team-access";

/** How long the secret a rotation replaces keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const createWebhookSchema = z.strictObject({
  teamId: z.string().min(1).max(100),
  url: z.url({ protocol: /^https?$/ }).max(2000),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((events) => [...new Set(events)]),
});

type EndpointRow = {
  id: string;
  teamId: string;
  url: string;
  events: unknown;
  enabled: boolean;
  disabledReason: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
};

/** What a page, the CLI and the API show of an endpoint: never its secrets. */
export function endpointView(row: EndpointRow) {
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? row.previousSecretExpiresAt : null;
  return {
    id: row.id,
    teamId: row.teamId,
    url: row.url,
    events: row.events as string[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    previousSecretValidUntil: overlap?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export type WebhookEndpointView = ReturnType<typeof endpointView>;

export function outboundPolicy(overrides: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return { allowPrivate: config().outboundAllowPrivate, ...overrides };
}

const noTeam = (teamId: string) => problem("not-found", { detail: `No team ${teamId}.` });

/** The endpoint, once the actor may `access` its team; 404 for an unknown id and for outsiders alike. */
export async function endpointFor(db: DbClient, actor: Actor, endpointId: string, access: WebhookAccess) {
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!endpoint) throw problem("not-found", { detail: `No webhook endpoint ${endpointId}.` });
  await assertTeamAccess({
    db,
    actor,
    teamId: endpoint.teamId,
    access,
    notFound: () => problem("not-found", { detail: `No webhook endpoint ${endpointId}.` }),
  });
  return endpoint;
}

/** Registers an endpoint after checking its URL under the outbound policy; the secret is in the answer, once. */
export async function createWebhookEndpoint(input: { db: DbClient; actor: Actor; input: unknown; policy?: OutboundPolicy }) {
  const parsed = createWebhookSchema.safeParse(input.input);
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const { teamId, url, events } = parsed.data;
  await assertTeamAccess({ db: input.db, actor: input.actor, teamId, access: "manage", notFound: () => noTeam(teamId) });
  await checkOutboundUrl(url, input.policy ?? outboundPolicy()).catch((error: unknown) => {
    throw error instanceof OutboundError ? validationProblem([{ in: "body", field: "url", message: error.message }]) : error;
  });
  const secret = newWebhookSecret(config().authSecret);
  const endpoint = await inTransaction(input.db, async (tx) => {
    const created = await tx.webhookEndpoint.create({
      data: { id: newId("whe"), teamId, url, events, secretSealed: secret.sealed, createdById: input.actor.userId ?? null },
    });
    await recordAudit(tx, input.actor, { action: "webhook.create", targetType: "webhook", targetId: created.id, details: { teamId, url, events } });
    return created;
  });
  return { endpoint: endpointView(endpoint), secret: secret.shown };
}

export async function listWebhookEndpoints(input: { db: DbClient; actor: Actor; teamId: string }): Promise<WebhookEndpointView[]> {
  await assertTeamAccess({ db: input.db, actor: input.actor, teamId: input.teamId, access: "read", notFound: () => noTeam(input.teamId) });
  const rows = await input.db.webhookEndpoint.findMany({ where: { teamId: input.teamId }, orderBy: { createdAt: "asc" } });
  return rows.map(endpointView);
}

/** A new secret, shown once; the one it replaces keeps signing beside it for SECRET_OVERLAP_MS. */
export async function rotateWebhookSecret(input: { db: DbClient; actor: Actor; endpointId: string }) {
  const endpoint = await endpointFor(input.db, input.actor, input.endpointId, "manage");
  const secret = newWebhookSecret(config().authSecret);
  const previousSecretExpiresAt = new Date(Date.now() + SECRET_OVERLAP_MS);
  const rotated = await inTransaction(input.db, async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { secretSealed: secret.sealed, previousSecretSealed: endpoint.secretSealed, previousSecretExpiresAt },
    });
    await recordAudit(tx, input.actor, { action: "webhook.secret.rotate", targetType: "webhook", targetId: endpoint.id, details: { previousSecretExpiresAt } });
    return updated;
  });
  return { endpoint: endpointView(rotated), secret: secret.shown };
}

export const updateWebhookSchema = z.strictObject({ enabled: z.boolean() });

export async function updateWebhookEndpoint(input: { db: DbClient; actor: Actor; endpointId: string; input: unknown }) {
  const parsed = updateWebhookSchema.safeParse(input.input);
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const endpoint = await endpointFor(input.db, input.actor, input.endpointId, "manage");
  const { enabled } = parsed.data;
  const updated = await inTransaction(input.db, async (tx) => {
    const row = await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled, disabledReason: enabled ? null : "disabled by a user" } });
    await recordAudit(tx, input.actor, { action: enabled ? "webhook.enable" : "webhook.disable", targetType: "webhook", targetId: endpoint.id });
    return row;
  });
  return endpointView(updated);
}

/** Removes the endpoint; its deliveries still pending fail, so the worker does not look for it again. */
export async function deleteWebhookEndpoint(input: { db: DbClient; actor: Actor; endpointId: string }): Promise<void> {
  const endpoint = await endpointFor(input.db, input.actor, input.endpointId, "manage");
  await inTransaction(input.db, async (tx) => {
    await tx.eventDelivery.updateMany({
      where: { channel: "webhook", address: endpoint.id, status: "pending" },
      data: { status: "failed", lastError: "the endpoint was deleted", leaseOwner: null, leaseExpiresAt: null },
    });
    await tx.webhookEndpoint.delete({ where: { id: endpoint.id } });
    await recordAudit(tx, input.actor, { action: "webhook.delete", targetType: "webhook", targetId: endpoint.id, details: { url: endpoint.url } });
  });
}
